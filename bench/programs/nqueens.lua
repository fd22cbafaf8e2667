-- n-queens: count all solutions by backtracking; a line-by-line port of nqueens.tg (a board is a new array per placement).
local function safe(queens, col)
  local row = #queens
  for r = 0, row - 1 do
    local c = queens[r + 1]
    if c == col or c - col == row - r or col - c == row - r then
      return false
    end
  end
  return true
end

local function solve(n, queens)
  if #queens == n then
    return 1
  end
  local total = 0
  for col = 0, n - 1 do
    if safe(queens, col) then
      local next_queens = table.move(queens, 1, #queens, 1, {})
      next_queens[#queens + 1] = col
      total = total + solve(n, next_queens)
    end
  end
  return total
end

local function main(n)
  print(string.format("%d-queens: %d solutions", n, solve(n, {})))
end

main(math.tointeger(tonumber(arg[1])) or 6)
