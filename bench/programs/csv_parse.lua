-- CSV-like text parsing: generate the text, split it into lines and fields, rows as tables, aggregate by city; a line-by-line port of csv_parse.tg (prices parsed as integer cents).
local CITIES = {"Oslo", "Lima", "Pune", "Kobe", "Nice", "Cork", "Bern", "Perth", "Quito", "Accra"}
local ITEMS = {"bolt", "nut", "gear", "cog", "pin", "rod"}

local function split(s, sep)
  local parts = {}
  local start = 1
  while true do
    local i = string.find(s, sep, start, true)
    if i == nil then
      parts[#parts + 1] = string.sub(s, start)
      return parts
    end
    parts[#parts + 1] = string.sub(s, start, i - 1)
    start = i + 1
  end
end

local function make_text(n)
  local seed = 2024
  local lines = {"id,city,item,qty,price"}
  for i = 0, n - 1 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local r = seed // 65536
    local city = CITIES[r % #CITIES + 1]
    local item = ITEMS[(r // 16) % #ITEMS + 1]
    local qty = 1 + (r // 128) % 50
    seed = (seed * 1103515245 + 12345) % 2147483648
    local cents = 100 + (seed // 4096) % 99900
    lines[#lines + 1] = string.format("%d,%s,%s,%d,%d.%02d", i, city, item, qty, cents // 100, cents % 100)
  end
  return table.concat(lines, "\n") .. "\n"
end

local function parse(text)
  local lines = split(text, "\n")
  local header = split(lines[1], ",")
  local rows = {}
  for li = 2, #lines do
    local line = lines[li]
    if line ~= "" then
      local fields = split(line, ",")
      local row = {}
      for k = 1, math.min(#header, #fields) do row[header[k]] = fields[k] end
      rows[#rows + 1] = row
    end
  end
  return rows
end

local function parse_cents(s)
  local parts = split(s, ".")
  return math.tointeger(tonumber(parts[1])) * 100 + math.tointeger(tonumber(parts[2]))
end

local function summarize(rows)
  local by_city = {}
  for _, row in ipairs(rows) do
    local city = row.city
    local qty = math.tointeger(tonumber(row.qty))
    local amount = qty * parse_cents(row.price)
    if by_city[city] == nil then
      by_city[city] = {orders = 0, qty = 0, cents = 0, items = {}}
    end
    by_city[city].orders = by_city[city].orders + 1
    by_city[city].qty = by_city[city].qty + qty
    by_city[city].cents = by_city[city].cents + amount
    local item = row.item
    by_city[city].items[item] = (by_city[city].items[item] or 0) + qty
  end
  local cities = {}
  for k in pairs(by_city) do cities[#cities + 1] = k end
  table.sort(cities)
  local out = {}
  for _, city in ipairs(cities) do
    local s = by_city[city]
    local items = {}
    for k, v in pairs(s.items) do items[#items + 1] = {k, v} end
    table.sort(items, function(a, b)
      if a[2] ~= b[2] then return a[2] > b[2] end
      return a[1] < b[1]
    end)
    local best = items[1][1]
    out[#out + 1] = string.format("%-6s orders %6d qty %8d total %10d.%02d top %s", city, s.orders, s.qty,
                                  s.cents // 100, s.cents % 100, best)
  end
  return out
end

local function main(n)
  local text = make_text(n)
  local rows = parse(text)
  for _, line in ipairs(summarize(rows)) do print(line) end
  print(string.format("%d rows, %d characters", #rows, #text))
end

main(math.tointeger(tonumber(arg[1])) or 1000)
