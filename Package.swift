// swift-tools-version: 6.2
import PackageDescription

// Imports run one way: executables → Headless / TerminalUI → FlowCatalog → flow families → FlowEngine; families → SDK surfaces (IdpSdk, KSMasterController, kssidp, SafepayDropsSDK, Q2ModuleInterfaces)
// → simulators (IdentityProvider, ThreeDSecure) → foundations (Secrets, Determinism, Crypto) → C libraries.
// docs/architecture.md draws the graph.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// The engine and the IdpSdk flows: an async call stays on its caller's executor (docs/architecture.md, Threads).
let nonsending: [SwiftSetting] = strict + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "idp-tui",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "idp-tui", targets: ["idp-tui"]),
        .executable(name: "idp-bench", targets: ["idp-bench"]),
        // The simulated SDKs, for app code (docs/sdk-usage.md): one library per vendor module, and the world they
        // talk to. None of them reaches curses, epoll or the terminal.
        .library(name: "KSMasterController", targets: ["KSMasterController"]),
        .library(name: "IdpSdk", targets: ["IdpSdk"]),
        .library(name: "kssidp", targets: ["kssidp"]),
        .library(name: "SafepayDropsSDK", targets: ["SafepayDropsSDK"]),
        .library(name: "Q2ModuleInterfaces", targets: ["Q2ModuleInterfaces"]),
        .library(name: "IdpTuiWorld", targets: ["IdpTuiWorld"]),
    ],
    targets: [
        // C libraries from Debian, through module maps.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Foundations.
        .target(name: "Crypto", dependencies: ["CLibCrypto", "Threading"], swiftSettings: strict),
        .target(name: "Secrets", dependencies: ["Crypto"], swiftSettings: strict),
        .target(name: "Threading", swiftSettings: strict),
        .target(name: "Determinism", dependencies: ["Threading"], swiftSettings: strict),
        .target(name: "JSONText", swiftSettings: strict),

        // Simulators.
        .target(
            name: "IdentityProvider",
            dependencies: ["Crypto", "Secrets", "Determinism", "Threading"],
            swiftSettings: strict),

        .target(
            name: "ThreeDSecure", dependencies: ["Crypto", "Secrets", "Determinism", "Threading"], swiftSettings: strict),

        // The simulated Drops web page (what runs in the web view) and the bridge's message format.
        .target(name: "DropsWeb", dependencies: ["JSONText", "ThreeDSecure", "Determinism", "Threading", "Crypto"], swiftSettings: strict),

        // SDK surfaces.
        .target(
            name: "SafepayDropsSDK", dependencies: ["DropsWeb", "IdpTuiWorld", "JSONText", "Determinism", "Threading", "Crypto"],
            swiftSettings: strict),
        .target(
            name: "Q2Core", dependencies: ["IdentityProvider", "JSONText", "Crypto", "Secrets", "Determinism", "Threading"],
            swiftSettings: strict),
        .target(name: "Q2ModuleInterfaces", dependencies: ["Q2Core", "IdpTuiWorld", "IdentityProvider", "JSONText", "Secrets", "Threading"], swiftSettings: strict),
        .target(name: "KSMasterController", dependencies: ["IdpTuiWorld", "IdentityProvider", "Secrets", "Crypto", "Determinism", "Threading"], swiftSettings: strict),
        .target(name: "IdpSdk", dependencies: ["KSMasterController", "IdpTuiWorld", "IdentityProvider", "Secrets", "Crypto", "Determinism", "Threading"], swiftSettings: strict),
        // The legacy wrapper the IdpSdk replaces.
        .target(name: "kssidp", dependencies: ["IdpSdk", "KSMasterController", "IdpTuiWorld", "IdentityProvider", "Secrets", "Threading"], swiftSettings: strict),

        // Scenarios: what a simulation starts from.
        .target(
            name: "Scenario",
            dependencies: ["IdentityProvider", "ThreeDSecure", "DropsWeb", "JSONText", "Secrets", "Determinism"],
            swiftSettings: strict),

        // The simulated world the SDKs talk to, built from a scenario (also a product: app code picks its scenario).
        .target(
            name: "IdpTuiWorld",
            dependencies: ["Scenario", "IdentityProvider", "ThreeDSecure", "Q2Core", "DropsWeb", "JSONText", "Determinism", "Threading", "Secrets"],
            swiftSettings: strict),

        // What a finished flow leaves (its outcome, summary and transcript) and where it is kept.
        .target(name: "FlowRecords", dependencies: ["Determinism", "JSONText", "Threading"], swiftSettings: strict),

        // The flow engine: scheduling, the device queues, the mailbox, the credential channel, events, cancel,
        // timeouts and history. It knows a flow family only through the FlowFamily protocol and imports no SDK.
        .target(
            name: "FlowEngine",
            dependencies: ["IdpTuiWorld", "FlowRecords", "Secrets", "Determinism", "Threading", "CWakeup"],
            swiftSettings: nonsending),
        // The composition root below the families: a scenario's world with one simulated device (its master
        // controller, queue and network line), and the stores that outlive a process.
        .target(
            name: "Simulation", dependencies: ["IdpTuiWorld", "KSMasterController", "IdentityProvider", "Scenario", "Determinism"],
            swiftSettings: strict),
        // One module per SDK family's flows, each a FlowFamily.
        .target(
            name: "IdpFlows",
            dependencies: ["FlowEngine", "Simulation", "FlowRecords", "IdpTuiWorld", "IdpSdk", "KSMasterController", "IdentityProvider", "Crypto", "Threading"],
            swiftSettings: nonsending),
        .target(
            name: "LegacyFlows",
            dependencies: ["FlowEngine", "IdpFlows", "Simulation", "FlowRecords", "kssidp", "IdpSdk", "KSMasterController", "IdentityProvider", "Secrets", "Threading"],
            swiftSettings: strict),
        .target(
            name: "PaymentFlows",
            dependencies: ["FlowEngine", "FlowRecords", "SafepayDropsSDK", "DropsWeb", "ThreeDSecure", "IdpTuiWorld", "IdentityProvider", "Crypto", "Determinism", "Threading"],
            swiftSettings: strict),
        .target(
            name: "Q2Flows",
            dependencies: ["FlowEngine", "FlowRecords", "Q2ModuleInterfaces", "Q2Core", "IdpTuiWorld", "IdentityProvider", "JSONText", "Secrets", "Threading"],
            swiftSettings: strict),
        // The one place the families are registered, and the settings of them all.
        .target(
            name: "FlowCatalog",
            dependencies: ["FlowEngine", "FlowRecords", "Simulation", "IdpFlows", "LegacyFlows", "PaymentFlows", "Q2Flows", "KSMasterController", "Q2ModuleInterfaces", "SafepayDropsSDK", "DropsWeb", "Scenario", "IdentityProvider", "Secrets"],
            swiftSettings: strict),
        // The state file (SQLite): the stores of the IdP and the device, and the history of flows.
        .target(
            name: "StateStore",
            dependencies: ["CSQLite", "FlowRecords", "IdentityProvider", "KSMasterController", "Determinism", "Threading"],
            swiftSettings: strict),
        .target(name: "Headless", dependencies: ["FlowEngine", "Determinism", "FlowCatalog", "Simulation", "IdpFlows", "LegacyFlows", "PaymentFlows", "Q2Flows", "FlowRecords", "IdentityProvider", "KSMasterController", "Q2ModuleInterfaces", "StateStore", "Scenario", "JSONText", "SafepayDropsSDK", "DropsWeb", "ThreeDSecure", "Secrets", "Crypto", "Threading", "LocaleText", "CWakeup"], swiftSettings: strict),
        .target(name: "CTextWidth"),
        .target(name: "CSignalFD"),
        // Text for the user's locale: ASCII spellings under one that is not UTF-8 (plain mode, help, error lines).
        .target(name: "LocaleText", dependencies: ["CTextWidth", "FlowRecords"], swiftSettings: strict),
        // The mailbox's wake-up descriptor (epoll over a pipe and a timerfd).
        .target(name: "CWakeup", linkerSettings: [.linkedLibrary("dispatch")]),
        .target(
            name: "TerminalUI", dependencies: ["FlowEngine", "FlowCatalog", "IdpFlows", "LegacyFlows", "PaymentFlows", "FlowRecords", "IdentityProvider", "IdpSdk", "SafepayDropsSDK", "DropsWeb", "ThreeDSecure", "Secrets", "JSONText", "LocaleText"], swiftSettings: strict),
        .target(name: "CNcurses", linkerSettings: [.linkedLibrary("ncursesw")]),
        .target(
            name: "CursesBackend", dependencies: ["CNcurses", "TerminalUI", "FlowEngine", "Threading", "LocaleText"], swiftSettings: strict),
        .executableTarget(
            name: "idp-tui",
            dependencies: ["FlowEngine", "FlowRecords", "Headless", "CursesBackend", "TerminalUI", "IdentityProvider", "StateStore", "Threading", "LocaleText", "CSignalFD"],
            swiftSettings: strict),
        .executableTarget(name: "idp-bench", dependencies: ["FlowEngine", "FlowCatalog", "Simulation", "FlowRecords", "Scenario", "Secrets", "Determinism", "IdentityProvider", "Threading", "Crypto"], swiftSettings: strict),

        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "IdentityProvider"], swiftSettings: strict),
        .testTarget(
            name: "ThreeDSecureTests", dependencies: ["ThreeDSecure", "Secrets", "Determinism", "Threading"], swiftSettings: strict),
        .testTarget(
            name: "SafepayDropsTests", dependencies: ["JSONText", "SafepayDropsSDK", "DropsWeb", "ThreeDSecure", "Secrets", "Determinism", "Threading"],
            swiftSettings: strict),
        .testTarget(name: "SecretsTests", dependencies: ["Secrets"], swiftSettings: strict),
        .testTarget(
            name: "Q2Tests", dependencies: ["Q2ModuleInterfaces", "Q2Core", "IdentityProvider", "JSONText", "Secrets", "Determinism", "Threading"],
            swiftSettings: strict),
        .testTarget(
            name: "ScenarioTests", dependencies: ["Scenario", "JSONText", "IdentityProvider", "ThreeDSecure"], swiftSettings: strict),
        .testTarget(name: "DeterminismTests", dependencies: ["Determinism", "Threading"], swiftSettings: strict),
        .testTarget(
            name: "IdentityProviderTests", dependencies: ["IdentityProvider", "Secrets", "Determinism", "Crypto", "Threading"],
            swiftSettings: strict),
        .testTarget(
            name: "SDKTests", dependencies: ["IdpSdk", "KSMasterController", "kssidp", "Q2ModuleInterfaces", "SafepayDropsSDK", "IdpTuiWorld", "ThreeDSecure", "IdentityProvider", "Secrets", "Determinism", "Threading", "Crypto"],
            swiftSettings: strict),
        .testTarget(
            name: "FlowServiceTests",
            dependencies: [
                "FlowEngine", "FlowCatalog", "Simulation", "IdpFlows", "LegacyFlows", "PaymentFlows", "Q2Flows", "FlowRecords", "IdpSdk", "kssidp", "KSMasterController", "IdentityProvider", "SafepayDropsSDK", "DropsWeb", "ThreeDSecure", "Secrets", "Determinism",
                "Threading", "Scenario",
            ],
            swiftSettings: strict),
        // Depends on the executable so that `swift test` builds the binary these tests run.
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "FlowEngine", "FlowCatalog", "Simulation", "IdpFlows", "LegacyFlows", "PaymentFlows", "Q2Flows", "FlowRecords", "Determinism", "ThreeDSecure", "DropsWeb", "Secrets", "Scenario", "LocaleText"],
            exclude: ["Snapshots"], swiftSettings: strict),
        // Drive the real binary in tmux.
        .testTarget(name: "EndToEndTests", dependencies: ["idp-tui", "LocaleText", "StateStore"], swiftSettings: strict),
        .testTarget(name: "HeadlessTests", dependencies: ["Headless", "PaymentFlows", "StateStore", "FlowRecords", "Threading", "IdentityProvider", "idp-tui"], swiftSettings: strict),
    ]
)

// Coverage-guided fuzzing (docs/reliability.md): one libFuzzer executable per input format, in Fuzz/Sources. They
// are declared only when IDP_TUI_FUZZ is set, so that the everyday build and `swift test` never see them;
// scripts/fuzz.sh sets it and builds them with `--sanitize=fuzzer --sanitize=address` in a build directory of
// their own. They live in this package, not beside it as Examples/ does, because what they feed is reached through
// `package` API (the bridge's messages) and modules that are no product (Headless, TerminalUI).
if Context.environment["IDP_TUI_FUZZ"] != nil {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("fuzz-json", ["JSONText"]),
        ("fuzz-answers", ["Headless", "FlowEngine", "IdpFlows", "LegacyFlows", "PaymentFlows", "Q2Flows", "DropsWeb", "JSONText", "Secrets"]),
        ("fuzz-scenario", ["Scenario", "JSONText"]),
        ("fuzz-theme", ["TerminalUI"]),
        ("fuzz-keys", ["TerminalUI"]),
        ("fuzz-bridge", ["DropsWeb", "SafepayDropsSDK", "JSONText", "Determinism", "Threading"]),
    ]
    for target in fuzzTargets {
        package.targets.append(
            .executableTarget(name: target.name, dependencies: target.dependencies, path: "Fuzz/Sources/\(target.name)", swiftSettings: strict))
    }
}
