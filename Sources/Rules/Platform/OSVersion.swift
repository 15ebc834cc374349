/// Compares dotted OS versions numerically: `15.0` > `9.3`, `15` == `15.0`.
func compareVersions(_ a: String, _ b: String) -> Int {
    let x = a.split(separator: ".").map { Int($0) ?? 0 }
    let y = b.split(separator: ".").map { Int($0) ?? 0 }
    for index in 0..<max(x.count, y.count) {
        let l = index < x.count ? x[index] : 0
        let r = index < y.count ? y[index] : 0
        if l != r { return l < r ? -1 : 1 }
    }
    return 0
}
