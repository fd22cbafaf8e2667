-- fasta + k-nucleotide (benchmarks game): a random DNA string from fasta's LCG, then k-mer counts in tables; a line-by-line port of knucleotide.tg.
local IM, IA, IC = 139968, 3877, 29573

local function make_cumulative(tbl)
  local chars, probs = {}, {}
  local p = 0.0
  for _, cw in ipairs(tbl) do
    p = p + cw[2]
    chars[#chars + 1] = cw[1]
    probs[#probs + 1] = p
  end
  return chars, probs
end

local function random_sequence(n, tbl, seed)
  local chars, probs = make_cumulative(tbl)
  local nc = #chars
  local out = {}
  for i = 1, n do
    seed = (seed * IA + IC) % IM
    local r = seed / IM
    local k = 1
    while k < nc and r >= probs[k] do
      k = k + 1
    end
    out[#out + 1] = chars[k]
  end
  return table.concat(out), seed
end

local function count_kmers(seq, k)
  local counts = {}
  for i = 1, #seq - k + 1 do
    local kmer = string.sub(seq, i, i + k - 1)
    counts[kmer] = (counts[kmer] or 0) + 1
  end
  return counts
end

local function frequencies(seq, k)
  local counts = count_kmers(seq, k)
  local total = #seq - k + 1
  local items = {}
  for kmer, c in pairs(counts) do items[#items + 1] = {kmer, c} end
  table.sort(items, function(a, b)
    if a[2] ~= b[2] then return a[2] > b[2] end
    return a[1] < b[1]
  end)
  local lines = {}
  for _, kv in ipairs(items) do
    lines[#lines + 1] = string.format("%s %.3f", kv[1], 100 * kv[2] / total)
  end
  return lines
end

local function main(n)
  local homo_sapiens = {{"a", 0.3029549426680}, {"c", 0.1979883004921}, {"g", 0.1975473066391}, {"t", 0.3015094502008}}
  local iub = {{"a", 0.27}, {"c", 0.12}, {"g", 0.12}, {"t", 0.27}, {"B", 0.02}, {"D", 0.02},
               {"H", 0.02}, {"K", 0.02}, {"M", 0.02}, {"N", 0.02}, {"R", 0.02}, {"S", 0.02},
               {"V", 0.02}, {"W", 0.02}, {"Y", 0.02}}
  local seq1, seed = random_sequence(n, iub, 42)
  local seq2
  seq2, seed = random_sequence(n, homo_sapiens, seed)
  local seq = string.upper(seq1 .. seq2)
  print(string.format("length %d, last seed %d", #seq, seed))
  for _, k in ipairs({1, 2}) do
    for _, line in ipairs(frequencies(seq, k)) do print(line) end
    print("")
  end
  for _, frag in ipairs({"GGT", "GGTA", "GGTATT", "GGTATTTTAATT", "GGTATTTTAATTTATAGT"}) do
    local counts = count_kmers(seq, #frag)
    print(string.format("%d\t%s", counts[frag] or 0, frag))
  end
end

main(math.tointeger(tonumber(arg[1])) or 1000)
