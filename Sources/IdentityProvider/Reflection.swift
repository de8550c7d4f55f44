// The simulated servers and the network to them are the simulation's, not a device's: a dump of an SDK object that
// holds them (an app's debug log, a crash report: `dump` walks every stored property, whatever its access) shows
// their names, never their users, salts, hashes, sessions or keys.

extension SimulatedNetwork: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}

extension IdentityProvider: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["baseURL": baseURL], displayStyle: .class) }
}
