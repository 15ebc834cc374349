let s0 = "com.x."
let s1 = s0 + "ab"
let s2 = s1 + s1
let l1 = [s2, s1]
let l2 = [l1, l1, "x"]
func f() async throws { _ = try await Product.products(for: l2) }
