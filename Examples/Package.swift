// swift-tools-version: 6.2
import PackageDescription

// The vendors' usage code, compiled against idp-tui's simulated SDKs as an app's package would: it depends on
// idp-tui by path. Each example is built twice, in Swift 6 and in Swift 5 language mode (the Swift 5 targets'
// sources are links to the Swift 6 ones). docs/sdk-usage.md explains each file.

// A path dependency is known by its directory's name: `idp-tui` in a clone of that name, whatever a CI clone is
// called otherwise.
let idpTui = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "idp-tui").lowercased()

func sdk(_ product: String) -> Target.Dependency { .product(name: product, package: idpTui) }

let kobil: [Target.Dependency] = [sdk("KSMasterController"), sdk("IdpSdk"), sdk("kssidp"), sdk("IdpTuiWorld"), "ExampleSupport"]
let safepay: [Target.Dependency] = [sdk("SafepayDropsSDK"), sdk("IdpTuiWorld"), "ExampleSupport"]
let q2: [Target.Dependency] = [sdk("Q2ModuleInterfaces"), sdk("IdpTuiWorld"), "ExampleSupport"]

let package = Package(
    name: "idp-tui-examples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // What the examples print, kept for the tests as well.
        .target(name: "ExampleSupport", swiftSettings: [.swiftLanguageMode(.v6)]),

        // The KOBIL migration guide: the IdpSdk "after" code and the KSSIDP "before" code.
        .target(name: "KobilMigration", dependencies: kobil, swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "KobilMigrationSwift5", dependencies: kobil, swiftSettings: [.swiftLanguageMode(.v5)]),
        // The guide's IdpHandler awaited from a @MainActor screen, which compiles with NonisolatedNonsendingByDefault.
        .target(
            name: "KobilMigrationMainActorCaller", dependencies: kobil,
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
        // The swift-drops-sdk README.
        .target(name: "SafepayPayment", dependencies: safepay, swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "SafepayPaymentSwift5", dependencies: safepay, swiftSettings: [.swiftLanguageMode(.v5)]),
        // The Q2 authentication module's quick start.
        .target(name: "Q2CustomAuth", dependencies: q2, swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "Q2CustomAuthSwift5", dependencies: q2, swiftSettings: [.swiftLanguageMode(.v5)]),
        // The same under Swift 6.2's main-actor default isolation (new Xcode app targets' setting), with its own
        // CustomAuthModule.swift: the two edits docs/sdk-usage.md gives.
        .target(
            name: "Q2CustomAuthMainActor", dependencies: q2,
            swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]),

        // Runs every example against the demo world and prints what happens.
        .executableTarget(
            name: "run-examples", dependencies: ["KobilMigration", "SafepayPayment", "Q2CustomAuth", sdk("IdpTuiWorld")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["KobilMigration", "SafepayPayment", "Q2CustomAuth", "ExampleSupport", sdk("IdpTuiWorld"),
                           sdk("KSMasterController"), sdk("SafepayDropsSDK"), sdk("kssidp"), sdk("IdpSdk"), sdk("Q2ModuleInterfaces")],
            // A file sees the members of what it imports itself, as newer app templates set: VendorImportsOnly.swift.
            swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("MemberImportVisibility")]),
    ]
)
