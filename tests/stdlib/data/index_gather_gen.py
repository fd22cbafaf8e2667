# The NumPy values quoted in tests/stdlib/test_index_gather.cpp.
import numpy as np

x = np.arange(12).reshape(3, 4)
print(np.take(x, [2, 0, -1], axis=0).ravel().tolist())
print(np.take(x, [[3, 1], [0, 0]], axis=1).ravel().tolist())
print(np.take(x, -2, axis=0).tolist())
y = x.astype(np.float64).copy()
y[:, [1, -1]] = [[10, 20], [30, 40], [50, 60]]
print(y.astype(int).ravel().tolist())
z = x.astype(np.float64).copy()
np.add.at(z, [0, 2, 0], np.ones((3, 4)))
print(z.astype(int).ravel().tolist())
