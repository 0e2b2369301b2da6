-- wrk script for the benches' cross-check (tests/bench/lib/wrk.ts): each request is sent with the
-- next buyer's token (one per line in a file) and a fixed JSON body, as the Node generator does;
-- the answers with status 200 are counted apart (a hold, not a refusal), and done() prints one JSON
-- line. Arguments after `--`: method, path, tokens file ('' for none), body ('' for none), headers
-- ('' for none; "name: value" pairs joined by '|'). A 304 counts as answered like a 200 (a reader
-- that has the listing).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local method, path, body
local extra = {}
local tokens = {}
local next_token = 0
ok_answers = 0

function init(args)
  method = args[1] or "GET"
  path = args[2] or "/"
  if args[3] and args[3] ~= "" then
    for line in io.lines(args[3]) do
      tokens[#tokens + 1] = line
    end
  end
  body = args[4] ~= "" and args[4] or nil
  for pair in string.gmatch(args[5] or "", "[^|]+") do
    local name, value = pair:match("^([^:]+):%s*(.*)$")
    if name then
      extra[name] = value
    end
  end
end

function request()
  local headers = {}
  for name, value in pairs(extra) do
    headers[name] = value
  end
  if body then
    headers["content-type"] = "application/json"
  end
  if #tokens > 0 then
    headers["authorization"] = "Bearer " .. tokens[next_token % #tokens + 1]
    next_token = next_token + 1
  end
  return wrk.format(method, path, headers, body)
end

function response(status)
  if status == 200 or status == 304 then
    ok_answers = ok_answers + 1
  end
end

function done(summary, latency)
  local ok = 0
  for _, thread in ipairs(threads) do
    ok = ok + (thread:get("ok_answers") or 0)
  end
  io.write(string.format(
    '{"requests":%d,"ok":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"socketErrors":%d,"timeouts":%d}\n',
    summary.requests, ok, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout))
end
