-- Each wrk thread is one client: one player of one match, voting again and again, each vote
-- with its client id (v1, v2, ...) as the Python clients and the in-process side send them.
local counter = 0
local clients = {}
for line in io.lines(os.getenv("ARBITER_CLIENTS")) do
  local path, token, prefix = line:match("([^\t]+)\t([^\t]+)\t(.+)")
  table.insert(clients, {path = path, token = token, prefix = prefix})
end
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  local c = clients[id]
  path, prefix, sent = c.path, c.prefix, 0
  headers = {["Authorization"] = "Bearer " .. c.token, ["Content-Type"] = "application/json"}
end
function request()
  sent = sent + 1
  return wrk.format("POST", path, headers, prefix .. sent .. '"}')
end
function response(status, headers, body)
  if status ~= 200 then
    io.write("status " .. status .. "\n")
  end
end
