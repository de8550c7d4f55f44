import TerminalUI

/// The instant the simulated time of every input starts from: the decoder reads only differences.
let start = ContinuousClock.now

/// The key decoder: the input is what a terminal sends (UTF-8; invalid bytes read as U+FFFD) with the time it
/// arrives. The bytes F8 to FF never occur in UTF-8, and are the commands of the time instead: F8 to FD let
/// 1 ms, 49 ms, 50 ms, 499 ms, 500 ms or 10 s pass, FE flushes at the decoder's deadline as the session's loop
/// does, and FF flushes now (early, which must deliver nothing before the deadline).
///
/// What must hold: Ctrl-C is delivered whatever state the decoder is in; a flush at the deadline leaves nothing
/// waiting; a paste stays within its limit; mouse reports are within their ranges.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var decoder = KeyDecoder()
    var now = start
    var run: [UInt8] = []
    func feedRun() {
        for scalar in String(decoding: run, as: UTF8.self).unicodeScalars {
            let out = decoder.feed(scalar, at: now)
            checkOutput(out)
            if scalar == "\u{03}" { check(out.contains(.key(.control("c"))), "Ctrl-C lost: \(out)") }
        }
        run.removeAll(keepingCapacity: true)
    }
    for byte in bytes {
        guard byte >= 0xF8 else {
            run.append(byte)
            continue
        }
        feedRun()
        switch byte {
        case 0xF8: now += .milliseconds(1)
        case 0xF9: now += .milliseconds(49)
        case 0xFA: now += .milliseconds(50)
        case 0xFB: now += .milliseconds(499)
        case 0xFC: now += .milliseconds(500)
        case 0xFD: now += .seconds(10)
        case 0xFE: flushAtDeadline(&decoder, &now)
        default:
            let waiting = decoder.deadline
            let out = decoder.flush(at: now)
            checkOutput(out)
            if let waiting, now < waiting { check(out.isEmpty && decoder.deadline == waiting, "flushed before the deadline: \(out)") }
        }
    }
    feedRun()
    flushAtDeadline(&decoder, &now)
    return 0
}

func flushAtDeadline(_ decoder: inout KeyDecoder, _ now: inout ContinuousClock.Instant) {
    guard let deadline = decoder.deadline else { return }
    now = max(now, deadline)
    checkOutput(decoder.flush(at: now))
    check(decoder.deadline == nil, "something still waits after a flush at the deadline")
}

func checkOutput(_ out: [DecodedInput]) {
    for input in out {
        switch input {
        case .paste(let text):
            check(text.utf8.count <= KeyDecoder.maximumPaste + 32, "a paste of \(text.utf8.count) bytes")
        case .mouse(let report):
            check([0, 1, 2, 3, 64, 65, 66, 67].contains(report.button), "mouse button \(report.button)")
            check(report.column >= 0 && report.row >= 0, "mouse at \(report.column), \(report.row)")
        case .key, .focus:
            break
        }
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
