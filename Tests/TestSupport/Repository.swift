import Foundation

/// The repository's root folder (tests read examples/, rules.yaml and docs/ from it).
package let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

package func repositoryFile(_ path: String) -> String { repositoryRoot + "/" + path }

package func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// The built `iapdoctor` executable (beside the test bundle, else `.build/debug`).
package func iapdoctorExecutable() -> URL {
    if let productsDirectory = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") })?.bundleURL.deletingLastPathComponent() {
        let candidate = productsDirectory.appendingPathComponent("iapdoctor")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    }
    return URL(fileURLWithPath: repositoryFile(".build/debug/iapdoctor"))
}

/// Runs the built `iapdoctor` executable; returns its standard output and exit code. `launcher`,
/// when given, is a command that runs the executable as its last arguments (`python3 -c …`).
package func runIAPDoctor(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws -> (output: String, status: Int32, errors: String) {
    let process = Process()
    if launcher.isEmpty {
        process.executableURL = iapdoctorExecutable()
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = launcher + [iapdoctorExecutable().path] + arguments
    }
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    // This Mac's installed profiles never change what a test sees (a test gives its own folder).
    env["IAPDOCTOR_PROFILES_DIR"] = ""
    for (key, value) in environment { env[key] = value }
    if environment["HOME"] != nil, environment["IAPDOCTOR_PROFILES_DIR"] == nil { env.removeValue(forKey: "IAPDOCTOR_PROFILES_DIR") }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    // stderr goes to a file: an unread pipe would block a child that writes more than its buffer.
    let errorsPath = scratchPath("stderr")
    _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
    defer { removeScratch(errorsPath) }
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
    process.standardError = errors
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errors.close()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus, readText(errorsPath))
}

/// Runs `python3 -c script arguments…`.
package func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    // Standard error goes to a file, so neither pipe can fill up while the other is read.
    let errorPath = scratchPath("iapdoctor-python", suffix: ".stderr")
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    defer { removeScratch(errorPath) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), readText(errorPath))
}

/// Runs a program found on PATH (`/usr/bin/env NAME …`) in `folder`, its standard output and
/// error together in one text (through a file, so no pipe fills up).
package func runProgram(_ arguments: [String], in folder: String? = nil, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let logPath = scratchPath("iapdoctor-run", suffix: ".log")
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    defer { removeScratch(logPath) }
    let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    process.standardOutput = log
    process.standardError = log
    try process.run()
    process.waitUntilExit()
    try log.close()
    return (process.terminationStatus, readText(logPath))
}
