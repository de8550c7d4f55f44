// The world is the simulation itself (its servers, their users and keys, the randomness, the cardholder's script):
// a dump of it, or of an SDK object that holds it, shows which world it is, never what it holds.
extension SimulatedWorld: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["scenario": scenario.name], displayStyle: .class) }
}
