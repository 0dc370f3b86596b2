// The driver of checksum.sh: GB/s of each FileChecksum over 16 MB (FileChecksum.swift is
// compiled beside it, without its StoreFile extension). Prints the best and the median of 21.
import Foundation

enum FileHeader {
    static let fourLaneFormat: UInt32 = 5
    static let formatVersionOffset = 8
}

let size = 16 << 20
let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
var state: UInt64 = 1
for i in 0..<(size / 8) {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    buffer.storeBytes(of: state, toByteOffset: i * 8, as: UInt64.self)
}
let bytes = UnsafeRawBufferPointer(buffer)
for kind in [FileChecksum.twoChains, .fourLanes] {
    var seconds: [Double] = []
    var sink: UInt64 = 0
    for _ in 0..<21 {
        let start = ContinuousClock.now
        sink ^= kind.of(bytes)
        let elapsed = ContinuousClock.now - start
        seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    seconds.sort()
    let best = Double(size) / seconds[0] / 1e9
    let median = Double(size) / seconds[10] / 1e9
    print(String(format: "%@ on 16 MB: best %.2f GB/s, median %.2f GB/s (%016llx)", "\(kind)", best, median, sink))
}
