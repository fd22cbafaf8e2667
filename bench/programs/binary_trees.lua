-- binary-trees (benchmarks game) without metatables; a line-by-line port of binary_trees.tg (a node is a table {left, right}, a leaf {}).
local function make_tree(d)
  if d == 0 then
    return {}
  end
  d = d - 1
  return {make_tree(d), make_tree(d)}
end

local function check_tree(node)
  local left, right = node[1], node[2]
  if left == nil then
    return 1
  end
  return 1 + check_tree(left) + check_tree(right)
end

local function main(n)
  local min_depth = 4
  local max_depth = math.max(min_depth + 2, n)
  local stretch = max_depth + 1
  print(string.format("stretch tree of depth %d\t check: %d", stretch, check_tree(make_tree(stretch))))
  local long_lived = make_tree(max_depth)
  for d = min_depth, max_depth, 2 do
    local iters = 2 ^ (max_depth - d + min_depth) // 1
    iters = math.tointeger(iters)
    local check = 0
    for i = 1, iters do
      check = check + check_tree(make_tree(d))
    end
    print(string.format("%d\t trees of depth %d\t check: %d", iters, d, check))
  end
  print(string.format("long lived tree of depth %d\t check: %d", max_depth, check_tree(long_lived)))
end

main(math.tointeger(tonumber(arg[1])) or 6)
