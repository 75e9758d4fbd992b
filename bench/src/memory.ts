/** Bytes as megabytes, one decimal. */
export const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;

/** The process's peak resident set so far (getrusage, exact; Linux reports kilobytes), in MB. */
export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 102.4) / 10;

export type SampledMemory = { rssMb: number; heapUsedMb: number; externalMb: number; samples: number };

/**
 * The highest of process.memoryUsage() sampled every `everyMs`, until stop(). Timers wait while
 * synchronous work runs, so the samples can miss a peak reached inside it (peakRssMb does not).
 */
export function sampleMemory(everyMs: number): { stop: () => SampledMemory } {
  const peak = { rss: 0, heapUsed: 0, external: 0, samples: 0 };
  const take = () => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external);
    peak.samples++;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { rssMb: mb(peak.rss), heapUsedMb: mb(peak.heapUsed), externalMb: mb(peak.external), samples: peak.samples };
    },
  };
}
