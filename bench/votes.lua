-- Each wrk thread is one client: one player of one match, voting again and again.
local counter = 0
local clients = {}
for line in io.lines(os.getenv("ARBITER_CLIENTS")) do
  local path, token, body = line:match("([^\t]+)\t([^\t]+)\t(.+)")
  table.insert(clients, {path = path, token = token, body = body})
end
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  local c = clients[id]
  request_data = wrk.format("POST", c.path, {["Authorization"] = "Bearer " .. c.token,
    ["Content-Type"] = "application/json"}, c.body)
end
function request()
  return request_data
end
function response(status, headers, body)
  if status ~= 200 then
    io.write("status " .. status .. "\n")
  end
end
