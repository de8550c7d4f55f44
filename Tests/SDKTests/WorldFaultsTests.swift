import Foundation
import IdpTuiWorld
import Q2ModuleInterfaces
import Testing

/// App code switches faults as the faults panel does (`setFaults`), to test its own error paths without a
/// scenario file of its own.
@Suite struct WorldFaultsTests {
    /// alice's Q2 sign-in in the current world, in words: "200", "network unavailable", "generic 500".
    private func signIn() async -> String {
        let authentication = SimulatedQ2Platform().context.passwordAuthentication
        do {
            return try await "\(authentication.authenticate(using: PasswordCredential(username: "alice", password: "wonderland")).statusCode)"
        } catch let failure as MobileCoreLoginFailure {
            switch failure {
            case .networkUnavailable: return "network unavailable"
            case .genericError(_, let status, _): return "generic \(status.map(String.init) ?? "-")"
            default: return "\(failure)"
            }
        } catch {
            return "\(error)"
        }
    }

    @Test func faultsSwitchedFromCodeBiteTheNextCallAndGoOffAgain() async throws {
        try await SimulatedWorld.withWorld { world in
            #expect(world.faultsOn.isEmpty, "the demo scenario has none on")
            try world.setFaults(#"{"networkUnavailable": true}"#)
            #expect(world.faultsOn == ["network unavailable"])
            #expect(await signIn() == "network unavailable")
            try world.setFaults(#"{"serverError": true}"#)
            #expect(world.faultsOn == ["network unavailable", "server error"], "a key left out keeps its fault")
            try world.setFaults(#"{"networkUnavailable": false}"#)
            #expect(await signIn() == "generic 500")
            world.resetFaults()
            #expect(world.faultsOn.isEmpty)
            #expect(await signIn() == "200")
            try world.setFaults(#"{"bridge": {"unknownEvent": true}, "threeDS": {"acs": "erro"}}"#)
            #expect(world.faultsOn == ["an unknown bridge event", "ACS answering with an Erro message"], "\(world.faultsOn)")
        }
    }

    @Test func aWrongFaultsObjectNamesItsPlaceAndChangesNothing() async throws {
        try await SimulatedWorld.withWorld { world in
            try world.setFaults(#"{"serverError": true}"#)
            let cases = [
                (#"{"serverError": false, "networkUnavalable": true}"#, "setFaults: line 1, column 45: $: has a key it does not know, before this value; did you mean \"networkUnavailable\"?"),
                (#"{"addedLatencyMs": -5}"#, "setFaults: line 1, column 20: $.addedLatencyMs: must be from 0 to 60000"),
                ("{\"serverError\": fals", "setFaults: line 1, column 17: not valid JSON"),
                ("[]", "setFaults: line 1, column 1: $"),
            ]
            for (json, start) in cases {
                do {
                    try world.setFaults(json)
                    Issue.record("\(json) was taken")
                } catch let error as SimulatedWorldError {
                    #expect(error.description.hasPrefix(start), "\(error.description)")
                } catch {
                    Issue.record("\(error)")
                }
                #expect(world.faultsOn == ["server error"], "nothing changed after \(json)")
            }
        }
    }
}
