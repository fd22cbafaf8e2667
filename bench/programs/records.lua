-- records: arrays of tables, grouping in a table, sorts with comparators, string building; a line-by-line port of records.tg.
local SYLLABLES = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "be", "da", "fe", "gu", "ho", "ji", "pe", "zu"}
local DEPTS = {"sales", "research", "support", "legal", "finance", "ops", "design", "hr"}

local function make_records(n)
  local seed = 12345
  local records = {}
  for i = 0, n - 1 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local r = seed // 65536
    local parts = {}
    for k = 0, 2 + r % 3 - 1 do
      parts[#parts + 1] = SYLLABLES[(r // math.tointeger(16 ^ k)) % 16 + 1]
    end
    local name = table.concat(parts)
    seed = (seed * 1103515245 + 12345) % 2147483648
    r = seed // 65536
    local dept = DEPTS[r % #DEPTS + 1]
    local age = 20 + (r // 8) % 46
    seed = (seed * 1103515245 + 12345) % 2147483648
    local salary = 30000 + (seed // 256) % 90000
    records[#records + 1] = {id = i, name = name, dept = dept, age = age, salary = salary}
  end
  return records
end

local function group_by(records, field)
  local groups = {}
  for _, r in ipairs(records) do
    local k = r[field]
    if groups[k] == nil then
      groups[k] = {}
    end
    local g = groups[k]
    g[#g + 1] = r
  end
  return groups
end

local function report(records)
  local lines = {}
  local groups = group_by(records, "dept")
  local depts = {}
  for k in pairs(groups) do depts[#depts + 1] = k end
  table.sort(depts)
  for _, dept in ipairs(depts) do
    local members = groups[dept]
    local total, ages = 0, 0
    for _, r in ipairs(members) do
      total = total + r.salary
      ages = ages + r.age
    end
    local top = table.move(members, 1, #members, 1, {})
    table.sort(top, function(a, b)
      if a.salary ~= b.salary then return a.salary > b.salary end
      if a.name ~= b.name then return a.name < b.name end
      return a.id < b.id
    end)
    local parts = {}
    for i = 1, math.min(3, #top) do parts[#parts + 1] = top[i].name .. ":" .. tostring(top[i].salary) end
    lines[#lines + 1] = string.format("%-10s%6d%8d%4d  %s", dept, #members, total // #members, ages // #members,
                                      table.concat(parts, ", "))
  end
  local counts = {}
  for _, r in ipairs(records) do
    counts[r.name] = (counts[r.name] or 0) + 1
  end
  local common = {}
  for k, v in pairs(counts) do common[#common + 1] = {k, v} end
  table.sort(common, function(a, b)
    if a[2] ~= b[2] then return a[2] > b[2] end
    return a[1] < b[1]
  end)
  local parts = {}
  for i = 1, math.min(5, #common) do parts[#parts + 1] = common[i][1] .. "=" .. tostring(common[i][2]) end
  lines[#lines + 1] = "common names: " .. table.concat(parts, " ")
  local by_age = table.move(records, 1, #records, 1, {})
  table.sort(by_age, function(a, b)
    if a.age ~= b.age then return a.age < b.age end
    return a.id < b.id
  end)
  local young, old = {}, {}
  for i = 1, math.min(3, #by_age) do young[#young + 1] = by_age[i].name end
  for i = math.max(1, #by_age - 2), #by_age do old[#old + 1] = by_age[i].name end
  lines[#lines + 1] = "youngest: " .. table.concat(young, " ") .. "; oldest: " .. table.concat(old, " ")
  return lines
end

local function main(n)
  local lines = report(make_records(n))
  local text = table.concat(lines, "\n")
  local checksum = 0
  for i, line in ipairs(lines) do
    checksum = (checksum * 31 + #line * i) % 1000000007
  end
  print(text)
  print(string.format("%d characters, checksum %d", #text, checksum))
end

main(math.tointeger(tonumber(arg[1])) or 1000)
