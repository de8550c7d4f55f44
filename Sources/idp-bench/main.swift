import FlowCatalog
import FlowEngine
import Simulation

// idp-bench: the engine's speed, for docs/performance.md. Not a test: it measures, it does not judge.
//
//   swift build -c release && .build/release/idp-bench [--round-trips N] [--pairs N] [--case K] [--primitives] [--startup]
//   (--case K runs only the K-th throughput case, 1-based, for profiling; each case also prints its CPU time and
//   context switches per flow, which vary less than flows per second on a shared VM)
import FlowRecords
import Crypto
import Determinism
import Foundation
import IdentityProvider
import Scenario
import Secrets
import Threading

#if canImport(Glibc)
    import Glibc
#endif

/// The options idp-bench takes: those with a positive whole number, and the switches.
let numberOptions: Set<String> = ["--round-trips", "--pairs", "--case"]
let switchOptions: Set<String> = ["--primitives", "--hashes-first", "--startup"]

/// Stops with one line and status 2 (the project's bad-input status): a figure measured with an option that was
/// not read is a wrong figure.
func usage(_ problem: String) -> Never {
    FileHandle.standardError.write(Data("idp-bench: \(problem)\n".utf8))
    exit(2)
}

do {
    var rest = CommandLine.arguments.dropFirst()[...]
    while let option = rest.popFirst() {
        if switchOptions.contains(option) { continue }
        guard numberOptions.contains(option) else {
            usage("unknown option \(option) (options: \((numberOptions.map { $0 + " N" } + switchOptions).sorted().joined(separator: ", ")))")
        }
        guard let value = rest.popFirst(), let number = Int(value), number > 0 else { usage("\(option) needs a whole number above 0") }
        _ = number
    }
}

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    // Checked above: a value that is there is a positive number.
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else { return value }
    return number
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// Background → front end → background through the credential channel, with the front end on the main
/// thread waiting on the mailbox descriptor as a curses loop would.
func channelRoundTrips(_ count: Int) -> [Double] {
    let mailbox = ServiceMailbox()
    let channel = CredentialChannel(mailbox: mailbox, clock: SystemClock())
    channel.open(flowID: 1)
    let samples = Locked<[Double]>([])
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue(label: "bench.background").async {
        var local: [Double] = []
        local.reserveCapacity(count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            _ = channel.askBlocking(flowID: 1, timeout: nil) { id in
                FlowPrompt(id: id, flowID: 1, flow: .login, fields: [.username, .password], clientId: "KssIdpLogin")
            }
            let elapsed = ContinuousClock.now - start
            local.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        samples.withLock { $0 = local }
        finished.signal()
    }
    let answer: [String: Secret] = ["username": Secret("alice"), "password": Secret("wonderland")]
    var answered = 0
    while answered < count {
        _ = mailbox.waitForMessages()
        for case .prompt(let prompt) in mailbox.drain() {
            channel.answer(promptID: prompt.id, with: .credentials(answer))
            answered += 1
        }
    }
    finished.wait()
    return samples.withLock { $0 }.sorted()
}

/// A front end that answers every prompt at once from a table.
final class Answering: FlowFrontEnd {
    var answers: [String: Secret] = [:]
    var finished: [FlowResult] = []
    func flowService(_ service: FlowService, didEmit event: FlowEvent) {}
    func flowService(_ service: FlowService, needsAnswerTo prompt: FlowPrompt) {
        service.answer(prompt, with: .credentials(answers))
    }
    func flowService(_ service: FlowService, didFinish result: FlowResult) { finished.append(result) }
}

/// CPU time (user, system) and context switches of this process so far.
func usage() -> (user: Double, system: Double, switches: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (seconds(usage.ru_utime), seconds(usage.ru_stime), usage.ru_nvcsw + usage.ru_nivcsw)
}

/// What the timed part of a throughput run cost per flow: CPU µs (user, system) and context switches.
/// Steadier than flows per second on a VM whose speed varies from run to run.
struct PerFlow {
    var user = 0.0
    var system = 0.0
    var switches = 0.0
}

/// Activation then login for `pairs` users, each on a fresh device of one IdP: `drivers` front-end threads,
/// each keeping `devicesPerDriver` devices busy at once and waiting on all their descriptors with one `poll`,
/// as a curses loop waits on the keyboard and the service together. Returns pairs per second.
/// `hashesFirst` computes every user's stored hashes before the timed part, as the IdP did at start before issue 16
/// moved them to each user's first use (to compare the flows' own cost with builds from before).
func flowThroughput(
    pairs: Int, iterations: Int, hashPin: Bool, drivers: Int, devicesPerDriver: Int = 1, hashesFirst: Bool = false
) -> (Double, Int, PerFlow) {
    let users = (0..<pairs).map { index in
        UserConfiguration(
            username: "user\(index)", password: Secret("password-\(index)"),
            activationCode: ActivationCodeConfiguration(code: Secret(String(format: "%06d", index))))
    }
    let configuration = IdentityProviderConfiguration(
        tenants: [TenantConfiguration(id: "demo", users: users, expectsHashedPins: hashPin)],
        passwordHashIterations: iterations)
    let world = SimulationEnvironment(scenario: Scenario(name: "bench", identityProvider: configuration, appTenant: "demo"), seed: 1)
    if hashesFirst { world.world.identityProvider.computeStoredHashes() }
    let failures = Locked(0)
    // One configuration for every device, as an app configures once: it keeps each family's settings by type, in a
    // dictionary whose making is not the engine's work (the services below still each copy it).
    let settings = FlowConfiguration(shouldHashPin: hashPin)
    let before = usage()
    let start = ContinuousClock.now
    DispatchQueue.concurrentPerform(iterations: drivers) { driver in
        var waiting = Array(stride(from: driver, to: pairs, by: drivers).reversed())
        var busy: [(service: FlowService, frontEnd: Answering)] = []
        while !waiting.isEmpty || !busy.isEmpty {
            while busy.count < devicesPerDriver, let index = waiting.popLast() {
                // No history: this measures the engine, as the figures before the history did.
                let service = FlowService(
                    environment: world.anotherDevice(), configuration: settings, history: nil)
                let frontEnd = Answering()
                frontEnd.answers = [
                    "username": Secret("user\(index)"), "password": Secret("password-\(index)"),
                    "activation-code": Secret(String(format: "%06d", index)),
                ]
                service.start(.activate)
                service.start(.login)
                busy.append((service, frontEnd))
            }
            var descriptors = busy.map { pollfd(fd: $0.service.wakeFileDescriptor, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) > 0 else { continue }
            for (slot, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                busy[slot].service.deliverPendingMessages(to: busy[slot].frontEnd)
            }
            busy.removeAll { device in
                guard device.frontEnd.finished.count == 2 else { return false }
                let bad = device.frontEnd.finished.filter { $0.outcome != .success }.count
                if bad > 0 { failures.withLock { $0 += bad } }
                return true
            }
        }
    }
    let elapsed = ContinuousClock.now - start
    let after = usage()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let flows = Double(2 * pairs)
    let perFlow = PerFlow(user: (after.user - before.user) * 1e6 / flows, system: (after.system - before.system) * 1e6 / flows,
                          switches: Double(after.switches - before.switches) / flows)
    return (Double(pairs) / seconds, failures.withLock { $0 }, perFlow)
}

let roundTrips = argument("--round-trips", default: 100_000)
let pairs = argument("--pairs", default: 20_000)

var info = utsname()
uname(&info)
let machine = withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
print("idp-bench on \(machine), \(ProcessInfo.processInfo.activeProcessorCount) cores")

/// The cost of one call of each crypto primitive the flows use, in µs.
func primitiveCost(_ label: String, _ count: Int = 20_000, _ body: () -> Void) {
    let start = ContinuousClock.now
    for _ in 0..<count { body() }
    let elapsed = ContinuousClock.now - start
    let micros = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
    print(String(format: "  %@: %.2f µs", label, micros))
}

if CommandLine.arguments.contains("--primitives") {
    let key = [UInt8](repeating: 7, count: 32)
    let message = [UInt8](repeating: 1, count: 64)
    print("crypto primitives (per call):")
    primitiveCost("SHA-256 of 64 bytes") { _ = SHA256.digest(message) }
    primitiveCost("HMAC-SHA-256 of 64 bytes") { _ = HMAC.sha256(key: key, message: message) }
    primitiveCost("PBKDF2-SHA-256, 1 round") { _ = PBKDF2.sha256(password: message, salt: key, iterations: 1) }
    primitiveCost("PBKDF2-SHA-256, 1000 rounds", 500) { _ = PBKDF2.sha256(password: message, salt: key, iterations: 1000) }
    primitiveCost("base64url of 32 bytes") { _ = Base64URL.encode(key) }
    let keyed = HMAC.Key(key)
    primitiveCost("HMAC-SHA-256 of 64 bytes, key made once") { _ = keyed.authenticate(message) }
    let sealed = ClientData(deviceID: "device", astClientId: ClientData.unactivatedAstClientId, nonce: "nonce").sealed(with: keyed)
    primitiveCost("ClientData seal") { _ = ClientData(deviceID: "d", astClientId: "a", nonce: "n").sealed(with: keyed) }
    primitiveCost("ClientData open") { _ = ClientData.open(sealed, with: keyed) }
}

let onlyCase = argument("--case", default: 0)
/// Every case makes its users' stored hashes before timing, as builds from before issue 16 did at start: with it,
/// an A/B against such a build compares the flows' own work (docs/performance.md, session 22).
let everyHashFirst = CommandLine.arguments.contains("--hashes-first")
let samples = channelRoundTrips(roundTrips)
print(String(format: "channel round trip (%d): p50 %.1f µs, p99 %.1f µs, max %.1f µs",
             roundTrips, percentile(samples, 0.5), percentile(samples, 0.99), samples.last ?? 0))

for (number, (label, iterations, hashPin, drivers, devices, count, hashesFirst)) in [
    ("hashing off (IdP hash 1 round, shouldHashPin off), 1 driver", 1, false, 1, 1, pairs, false),
    ("hashing off (IdP hash 1 round, shouldHashPin off), 2 drivers", 1, false, 2, 1, pairs, false),
    ("hashing off (IdP hash 1 round, shouldHashPin off), 4 drivers", 1, false, 4, 1, pairs, false),
    ("hashing off (IdP hash 1 round, shouldHashPin off), 2 drivers × 4 devices", 1, false, 2, 4, pairs, false),
    ("default scenario hashing (IdP PBKDF2 1000 rounds), 2 drivers", 1000, false, 2, 1, max(1, pairs / 10), false),
    ("shouldHashPin on (client PBKDF2 10000 rounds), 2 drivers", 1000, true, 2, 1, max(1, pairs / 100), false),
    ("default scenario hashing, stored hashes made before timing (as before issue 16), 2 drivers", 1000, false, 2, 1,
     max(1, pairs / 10), true),
].enumerated() where onlyCase == 0 || onlyCase == number + 1 {
    let (rate, failures, perFlow) = flowThroughput(
        pairs: count, iterations: iterations, hashPin: hashPin, drivers: drivers, devicesPerDriver: devices,
        hashesFirst: hashesFirst || everyHashFirst)
    print(String(format: "%@: %.0f activation+login pairs/s (%.0f flows/s) over %d pairs, %d failed; per flow %.0f µs user + %.0f µs system CPU, %.1f context switches",
                 label, rate, rate * 2, count, failures, perFlow.user, perFlow.system, perFlow.switches))
}

if CommandLine.arguments.contains("--startup") {
    func time(_ label: String, _ body: () -> Void) {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        print(String(format: "  %@: %.2f ms", label, Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000))
    }
    print("start-up pieces (first call in this process):")
    time("parse the genuine PEM chain") { _ = try? CertificateChain(pem: IdentityProviderCertificates.genuinePEM) }
    time("parse it again") { _ = try? CertificateChain(pem: IdentityProviderCertificates.genuinePEM) }
    time("SimulationEnvironment (IdP, MC)") { _ = SimulationEnvironment(seed: 1) }
    time("FlowService") { _ = FlowService(environment: SimulationEnvironment(seed: 2)) }
}
