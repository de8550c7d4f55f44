import Dispatch
import Threading
import ThreeDSecure

extension AccessControlServer {
    /// The ARes to `request`, for a synchronous test: the `async` call runs on a queue of its own (not the
    /// cooperative pool, which the suite's other tests may hold) while this thread waits for it.
    func authenticateWaiting(_ request: AuthenticationRequest) throws(DirectoryServerError) -> AuthenticationResponse {
        let answered = OneShot<Result<AuthenticationResponse, DirectoryServerError>>()
        Task(executorPreference: DispatchTaskExecutor(queue: DispatchQueue(label: "acs-test"))) {
            do throws(DirectoryServerError) {
                answered.fulfil(.success(try await self.authenticate(request)))
            } catch {
                answered.fulfil(.failure(error))
            }
        }
        return try answered.wait().get()
    }
}
