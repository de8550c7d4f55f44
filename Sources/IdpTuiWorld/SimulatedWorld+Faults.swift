import JSONText
import Scenario

// Faults switched from app code: what the terminal's faults panel and a headless answer's `faults` do, for an app's
// own tests of its error paths, in the same words (docs/faults.md).
extension SimulatedWorld {
    /// Switches faults on or off, live, as the terminal's faults panel does. `json` is a faults object in the format
    /// of a scenario's `faults` and a headless answer's (docs/faults.md): `{"networkUnavailable": true}`,
    /// `{"serverError": true, "addedLatencyMs": 800}`, `{"bridge": {"readyNeverComes": true}}`,
    /// `{"threeDS": {"acs": "erro"}}`. Each key given sets its fault over the faults on now (`false` or 0 switches
    /// it off, and null a `threeDS` server's); a key left out keeps it.
    ///
    /// An identity fault bites at the next round trip, also of a flow in flight; a Drops page takes the bridge's and
    /// 3-D Secure's faults when it is configured.
    ///
    /// - Throws: ``SimulatedWorldError`` naming every problem with its line and column; then no fault changes.
    public func setFaults(_ json: String) throws(SimulatedWorldError) {
        let node: JSONNode
        do {
            node = try JSONParser.parse(json)
        } catch {
            let problem = ScenarioProblem(path: "", position: error.position, message: error.documentProblem)
            throw SimulatedWorldError(path: Self.faultsPlace, problems: [problem.description])
        }
        let problems = updateFaults { identity, bridge -> [ScenarioProblem] in
            switch ScenarioFile.faults(node, at: "$", over: (identity, bridge)) {
            case .success(let faults):
                (identity, bridge) = faults
                return []
            case .failure(let failure): return failure.inFileOrder
            }
        }
        guard problems.isEmpty else { throw SimulatedWorldError(path: Self.faultsPlace, problems: problems.map(\.description)) }
    }

    /// Every fault back as the scenario has it (the demo scenario's: none on).
    public func resetFaults() {
        updateFaults { identity, bridge in (identity, bridge) = (scenario.identityFaults, scenario.bridgeFaults) }
    }

    /// The faults on now, in words, the identity side's then the bridge's and 3-D Secure's: `["network unavailable"]`;
    /// empty when none is.
    public var faultsOn: [String] {
        updateFaults { identity, bridge in identity.activeNames { _ in true } + bridge.activeNames { _ in true } }
    }

    /// What a faults error names as its place, as a scenario's names its file.
    static let faultsPlace = "setFaults"
}
