// Runs every example against the simulated world and prints what the documents' code prints.
import ExampleSupport
import Foundation
import KobilMigration
import Q2CustomAuth
import SafepayPayment

let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/scenarios").standardized

ExampleOutput.clear()
print("== KOBIL IdpSdk (the migration guide's IdpHandler)")
await KobilExample.idpSdk()

ExampleOutput.clear()
print("== Safepay Drops: a frictionless card")
let frictionless = SafepayExample.pay()
_ = await ExampleOutput.line(startingWith: "frictionless: ")
ExampleOutput.clear()
print("== Safepay Drops: a challenge, answered with the one-time code")
let challenged = try SafepayExample.payWithChallenge()
_ = await ExampleOutput.line(startingWith: "success: ")
print("== Safepay Drops: the controller, destroyed at once")
let destroyed = SafepayExample.payAndDestroy()
await MainActor.run { print("destroyed: no callback follows") }
withExtendedLifetime((frictionless, challenged, destroyed)) {}

print("== Q2: sign in, then a wrong password")
_ = try await Q2Example.signIn(username: "alice", password: "wonderland")
_ = try await Q2Example.signIn(username: "alice", password: "not-the-password")

ExampleOutput.clear()
print("== KOBIL KSSIDP (the guide's \"before\" code), on docs/scenarios/bank-qa.json")
try KobilExample.kssidp(scenarioFile: scenarios.appendingPathComponent("bank-qa.json").path)
