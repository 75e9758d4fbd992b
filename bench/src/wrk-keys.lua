-- Sends each request as the next key holder: entering a raffle (POST with an empty body), or
-- reading one's own allowlist proof (GET), with that person's personal key. Thread t of n sends
-- keys t+1, t+1+n, t+1+2n, ..., so no key repeats within a run unless the list runs out (done()
-- reports how often it wrapped). Each person also comes from their own address (X-Forwarded-For
-- 10.x.y.z; the data plane runs with TRUST_PROXY), as distinct people do; 'one-ip' sends them all
-- from one address instead.
--
-- Arguments after `--`: keys file, number of its lines to use, wrk threads, 'distinct' | 'one-ip',
-- and optionally the method (POST) and the status a success answers (201).
-- done() prints wrk's summary as one JSON line (the fields of wrk-summary.lua) plus every
-- status's count and the first body of each status other than the success status.

local threads = {}

function setup(thread)
  thread:set('id', #threads)
  table.insert(threads, thread)
end

function init(args)
  local usable = tonumber(args[2])
  keys = {}
  for line in io.lines(args[1]) do
    if #keys == usable then break end
    keys[#keys + 1] = line
  end
  stride = tonumber(args[3])
  oneIp = args[4] == 'one-ip'
  method = args[5] or 'POST'
  success = tonumber(args[6] or '201')
  body = method == 'POST' and '' or nil
  nextKey = id + 1
  wrapped = 0
  statuses = {}
  samples = {}
end

local function address(i)
  if oneIp then return '10.0.0.1' end
  return string.format('10.%d.%d.%d', math.floor(i / 65536) % 256, math.floor(i / 256) % 256, i % 256)
end

function request()
  local i = nextKey
  nextKey = nextKey + stride
  if nextKey > #keys then
    nextKey = nextKey - #keys
    wrapped = wrapped + 1
  end
  return wrk.format(method, nil, { ['Authorization'] = 'Bearer ' .. keys[i], ['X-Forwarded-For'] = address(i) }, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status ~= success and not samples[status] then samples[status] = string.sub(body or '', 1, 300) end
end

local function jsonString(s)
  local escaped = string.gsub(s, '[%c"\\]', function(c) return string.format('\\u%04x', string.byte(c)) end)
  return '"' .. escaped .. '"'
end

local function jsonObject(t, format)
  local parts = {}
  for k, v in pairs(t) do parts[#parts + 1] = jsonString(tostring(k)) .. ':' .. format(v) end
  return '{' .. table.concat(parts, ',') .. '}'
end

function done(summary, latency, requests)
  local counts, bodies, wraps = {}, {}, 0
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get('statuses')) do counts[status] = (counts[status] or 0) + n end
    for status, body in pairs(thread:get('samples')) do bodies[status] = bodies[status] or body end
    wraps = wraps + thread:get('wrapped')
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"mean":%.1f,"stdev":%.1f,"max":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d},' ..
    '"statuses":%s,"samples":%s,"keysWrapped":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.stdev, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    jsonObject(counts, function(n) return string.format('%d', n) end), jsonObject(bodies, jsonString), wraps))
end
