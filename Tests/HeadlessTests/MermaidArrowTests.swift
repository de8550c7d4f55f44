import Foundation
import Testing

/// The Mermaid export draws a request solid (`->>`) and an answer dashed (`-->>`), in every flow, whether or not
/// the event has a status.
@Suite struct MermaidArrowTests {
    /// Each flow's diagram, exported from a state file the flows ran in.
    func diagrams(_ flows: [String], _ answers: String) throws -> [String] {
        let state = freshStatePath()
        let run = try BinaryRun.run(["run"] + flows + ["--state", state], stdin: answers)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        return try flows.indices.map { index in
            let export = try BinaryRun.run(["history", "export", "\(index + 1)", "--format", "mermaid", "--state", state])
            #expect(export.status == 0, "\(export.stderr)")
            return export.stdout
        }
    }

    func arrows(_ diagram: String) -> [String] {
        diagram.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains(">>") }
    }

    @Test func threeDSecureRequestsAreSolidAndResponsesDashed() throws {
        let card = #""card":"4000000000002503","expiry":"12/30""#
        let all = try diagrams(["payer-auth", "payer-auth", "payer-auth"], "[{\(card),\"otp\":[\"0000\",\"1234\"]},"
            + "{\(card),\"otp\":\"1234\",\"faults\":{\"threeDS\":{\"acs\":\"malformed\"}}},"
            + "{\(card),\"faults\":{\"threeDS\":{\"directoryServer\":\"erro\"}}}]")
        let lines = all.flatMap(arrows)
        for request in ["AReq", "CReq", "RReq", "configure", "load", "safepay-property-update", "3DS Method"] {
            let found = lines.filter { $0.contains(": \(request)") }
            #expect(!found.isEmpty && found.allSatisfy { $0.contains("->>") && !$0.contains("-->>") }, "\(request): \(found)")
        }
        for response in ["ARes", "CRes", "safepay-inframe__ack", "onPayerAuthenticationRequired", "onPayerAuthenticationSuccess",
                         "onPayerAuthenticationFailure", "onPayerAuthenticationUnavailable"] {
            let found = lines.filter { $0.contains(": \(response)") }
            #expect(!found.isEmpty && found.allSatisfy { $0.contains("-->>") }, "\(response): \(found)")
        }
        // A bridge ack by the message's own name, with the status the page gave it.
        let acks = lines.filter { $0.contains(": safepay-inframe__ack") }
        #expect(!acks.isEmpty && acks.allSatisfy { $0.contains(": safepay-inframe__ack · success · messageId ") }, "\(acks)")
        // The card form and each challenge screen: asked solid, answered dashed.
        #expect(lines.contains { $0.hasPrefix("Drops->>App: challenge screen") })
        #expect(lines.contains { $0.hasPrefix("App-->>Drops: challenge screen · answered") })
        // An Erro in place of the ARes answers; the 3DS SDK's own Erro to the ACS (the CRes was unreadable) asks.
        #expect(lines.contains { $0.hasPrefix("DS-->>Drops: Erro · 404") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Drops->>ACS: Erro · 203") }, "\(lines)")
    }

    @Test func identityAndQ2CallsAreSolidAndTheirResultsDashed() throws {
        let all = try diagrams(["activate", "q2-login", "legacy-login"],
                               "[\(Answers.aliceActivation),\(Answers.alice),\(Answers.alice)]")
        let (activate, q2, legacy) = (arrows(all[0]), arrows(all[1]), arrows(all[2]))
        #expect(activate.contains { $0.hasPrefix("App->>MCSDK: Start · StartEvent") })
        #expect(activate.contains { $0.hasPrefix("MCSDK-->>App: Start · OK") })
        #expect(activate.contains { $0.hasPrefix("IdpSdk->>App: provideCredentials") })
        #expect(activate.contains { $0.hasPrefix("App-->>IdpSdk: provideCredentials · answered") })
        #expect(activate.contains { $0.hasPrefix("IdpSdk-->>App: getAuthorizationCode · OK") })
        #expect(q2.contains { $0.hasPrefix("Q2SDK->>App: sign-in screen") })
        #expect(q2.contains { $0.hasPrefix("App-->>Q2SDK: sign-in screen · answered") })
        #expect(q2.contains { $0.hasPrefix("Q2SDK->>Q2Core: POST /mobilews/logonUser") })
        #expect(q2.contains { $0.hasPrefix("Q2Core-->>Q2SDK: POST /mobilews/logonUser · 200") })
        // The app's custom auth module calls passwordAuthentication (it was a note in the module's own lane); its
        // result goes back to the app.
        #expect(q2.contains { $0.hasPrefix("App->>Q2SDK: authenticate(using:)") }, "\(q2)")
        #expect(q2.contains { $0.hasPrefix("Q2SDK-->>App: authenticate(using:) · 200") })
        // The module (the app's code) hands the response to the platform: a call from the app (it was drawn from the
        // SDK to the app).
        #expect(q2.contains { $0.hasPrefix("App->>Q2SDK: completePlatformAuthentication(with:) · OK") }, "\(q2)")
        #expect(legacy.contains { $0.hasPrefix("App->>KSSIDP: KssIdpWrapper.login") })
        #expect(legacy.contains { $0.hasPrefix("KSSIDP-->>App: KssIdpWrapper.login") })
    }
}
