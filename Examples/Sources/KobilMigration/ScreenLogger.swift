// Not in the guide: the app's own logger that `IdpHandler` is given. Here it prints.

final class ScreenLogger: Sendable {
    func log(_ line: String) {
        print(line)
    }
}
