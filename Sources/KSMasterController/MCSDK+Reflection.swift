// A dump of the master controller (an app's debug log, a crash report) shows the device, not the key it shares with
// the IdP to seal `clientData`, nor the simulation's randomness, store and fault switches.
extension MasterControllerConfiguration: CustomReflectable {
    package var customMirror: Mirror { Mirror(self, children: ["idpUrl": idpUrl, "deviceID": deviceID], displayStyle: .struct) }
}
