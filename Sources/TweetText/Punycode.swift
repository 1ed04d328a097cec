/// Punycode (RFC 3492) encoding of one domain label, used to check label lengths as
/// twitter-text does before it accepts an internationalised URL.
enum Punycode {
    private static let base: UInt32 = 36, tMin: UInt32 = 1, tMax: UInt32 = 26
    private static let skew: UInt32 = 38, damp: UInt32 = 700
    private static let initialBias: UInt32 = 72, initialN: UInt32 = 0x80

    /// The ASCII form of a label: unchanged when it is ASCII, else `xn--` plus its encoding.
    /// Returns nil when the encoding overflows.
    static func toASCII(label: [UInt32]) -> String? {
        if label.allSatisfy({ $0 < 0x80 }) {
            return String(String.UnicodeScalarView(label.compactMap(Unicode.Scalar.init)))
        }
        guard let encoded = encode(label) else { return nil }
        return "xn--" + encoded
    }

    static func encode(_ input: [UInt32]) -> String? {
        var output: [UInt8] = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = UInt32(output.count)
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta: UInt32 = 0
        var bias = initialBias
        let total = UInt32(input.count)
        while handled < total {
            guard let m = input.filter({ $0 >= n }).min() else { break }
            let (step, o1) = (m - n).multipliedReportingOverflow(by: handled + 1)
            if o1 { return nil }
            let (d, o2) = delta.addingReportingOverflow(step)
            if o2 { return nil }
            delta = d
            n = m
            for c in input {
                if c < n {
                    delta += 1
                    if delta == 0 { return nil }
                }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta: delta, points: handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ d: UInt32) -> UInt8 {
        d < 26 ? UInt8(d) + UInt8(ascii: "a") : UInt8(d - 26) + UInt8(ascii: "0")
    }

    private static func adapt(delta: UInt32, points: UInt32, first: Bool) -> UInt32 {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k: UInt32 = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
