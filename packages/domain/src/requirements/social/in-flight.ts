/**
 * Work keyed by what it asks, shared while it runs: a second caller asking the same thing before
 * the first answer arrives gets that answer instead of asking again. Nothing is kept once it has
 * answered (a later caller asks afresh).
 */
export class InFlight<T> {
  readonly #running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key);
    if (running) return running;
    const started = work().finally(() => this.#running.delete(key));
    this.#running.set(key, started);
    return started;
  }
}
