@testable import CameraSunCLI
import Testing

@Suite("ArgumentList: flags, options, positionals and leftovers")
struct ArgumentListTests {
    @Test("A flag is true once and consumed; absent flags are false")
    func flagIsConsumed() throws {
        var arguments = ArgumentList(["--json", "--verbose"], command: "meter")
        let first = arguments.flag("json"), second = arguments.flag("json")
        let quiet = arguments.flag("quiet"), verbose = arguments.flag("verbose")
        #expect(first)
        #expect(!second, "a flag is consumed")
        #expect(!quiet)
        #expect(verbose)
        try arguments.finish()
    }

    @Test("Grouped options: each --scene-file takes the --subject and --intent before the next --scene-file")
    func groupedOptions() throws {
        var arguments = ArgumentList(["--scene-file", "a.hdr", "--subject", "r1", "--scene-file", "b.hdr", "--subject", "r2",
                                      "--intent=1"], command: "ae-eval")
        var groups: [String] = []
        while let file = try arguments.option("scene-file") {
            let subject = try arguments.option("subject", before: "scene-file"), intent = try arguments.double("intent", before: "scene-file")
            groups.append("\(file) \(subject ?? "-") \(intent.map { "\($0)" } ?? "-")")
        }
        #expect(groups == ["a.hdr r1 -", "b.hdr r2 1.0"])
        try arguments.finish()
    }

    @Test("A flag matches only its exact spelling")
    func flagNeedsExactName() {
        var arguments = ArgumentList(["--jsonx", "json", "-json"], command: "meter")
        let json = arguments.flag("json")
        #expect(!json)
        #expect(cliError { try arguments.finish() } == .usage("unknown option '--jsonx' for 'meter' — see 'camerasun help meter'"))
    }

    @Test("Toggle: --name is true, --no-name false, neither nil", arguments: [
        (["--realtime"], Bool?.some(true)),
        (["--no-realtime"], Bool?.some(false)),
        ([String](), Bool?.none),
        (["--json"], Bool?.none),
    ])
    func toggle(arguments list: [String], expected: Bool?) {
        var arguments = ArgumentList(list, command: "meter")
        let first = arguments.toggle("realtime"), second = arguments.toggle("realtime")
        #expect(first == expected)
        #expect(second == nil, "a toggle is consumed")
    }

    @Test("Options take their value as `--x v` or `--x=v`", arguments: [
        (["--out", "a.png"], "a.png"),
        (["--out=a.png"], "a.png"),
        (["--json", "--out", "dir/b.png", "gray-card"], "dir/b.png"),
        (["--out=x=y.png"], "x=y.png"),
        (["--out="], ""),
    ])
    func optionValue(arguments list: [String], expected: String) throws {
        var arguments = ArgumentList(list, command: "scene")
        let value = try arguments.option("out")
        let again = try arguments.option("out")
        #expect(value == expected)
        #expect(again == nil, "an option is consumed with its value")
    }

    @Test("A negative number is a value, not an option")
    func negativeValue() throws {
        var arguments = ArgumentList(["--ev", "-1.5"], command: "meter")
        let ev = try arguments.double("ev")
        #expect(ev == -1.5)
        try arguments.finish()
    }

    @Test("An option without a value is a usage error naming it", arguments: [
        ["--out"],
        ["--out", "--json"],
    ])
    func missingValue(arguments list: [String]) {
        var arguments = ArgumentList(list, command: "scene")
        let error = cliError { try arguments.option("out") }
        #expect(error == .usage("--out needs a value — see 'camerasun help scene'"))
        #expect(error?.exitCode == 2)
    }

    @Test("An option with a prefix-sharing name is not taken for another")
    func optionNamesAreExact() throws {
        var arguments = ArgumentList(["--output", "x", "--out-dir=y"], command: "scene")
        let out = try arguments.option("out")
        let output = try arguments.option("output")
        let outDir = try arguments.option("out-dir")
        #expect(out == nil)
        #expect(output == "x")
        #expect(outDir == "y")
    }

    @Test("Whole numbers outside their range, fractions and words are usage errors naming the range or the form", arguments: [
        (["--frames", "0"], "--frames 0 is outside the supported range 1…100 — choose a value in that range"),
        (["--frames", "-3"], "--frames -3 is outside the supported range 1…100 — choose a value in that range"),
        (["--frames", "9223372036854776"], "--frames 9223372036854776 is outside the supported range 1…100 — choose a value in that range"),
        (["--frames", "nan"], "--frames nan is outside the supported range 1…100 — choose a value in that range"),
        (["--frames", "2.5"], "--frames 2.5 is not a whole number — see 'camerasun help meter'"),
        (["--frames=ten"], "--frames 'ten' is not a number — see 'camerasun help meter'"),
    ])
    func badInteger(arguments list: [String], message: String) {
        var arguments = ArgumentList(list, command: "meter")
        let error = cliError { try arguments.integer("frames", in: 1...100) }
        #expect(error == .usage(message))
    }

    @Test("Numbers in range parse; inf, nan and those outside the range name it, with the unit", arguments: [
        ("0.5", Double?.some(0.5), ""), ("1e3", 1000, ""), ("inf", nil, "--max-size inf megabytes is outside the supported range 1…1000000000 megabytes"),
        ("1e300", nil, "--max-size 1e+300 megabytes is outside"), ("0.001", nil, "--max-size 0.001 megabytes is outside the supported range 1…"),
    ])
    func rangedNumbers(text: String, expected: Double?, message: String) throws {
        var arguments = ArgumentList(["--max-size", text], command: "record")
        if let expected {
            #expect(try arguments.number("max-size", in: 0...1e9, unit: "megabytes") == expected)
        } else {
            let error = cliError { try arguments.number("max-size", in: 1...1e9, unit: "megabytes") }
            #expect(error?.kind == .usage && error?.message.hasPrefix(message) == true, "\(String(describing: error))")
        }
    }

    @Test("Numbers: finite values parse, others are usage errors", arguments: [
        ("1.5", Double?.some(1.5)), ("-8", -8), ("1e-1", 0.1), ("inf", nil), ("nan", nil), ("one", nil),
    ])
    func doubles(text: String, expected: Double?) throws {
        var arguments = ArgumentList(["--gain", text], command: "meter")
        if let expected {
            let gain = try arguments.double("gain")
            #expect(gain == expected)
        } else {
            let error = cliError { try arguments.double("gain") }
            #expect(error?.kind == .usage)
            #expect(error?.message.contains("'\(text)' is not a number") == true)
        }
    }

    @Test("--shutter parses a duration and names the accepted forms when it cannot")
    func shutterOption() throws {
        var good = ArgumentList(["--shutter", "1/250"], command: "meter")
        let parsed = try good.shutter()
        let shutter = try #require(parsed)
        #expect(shutter.value == 1 && shutter.timescale == 250)

        var bad = ArgumentList(["--shutter", "abc"], command: "meter")
        let error = cliError { try bad.shutter() }
        #expect(error?.kind == .usage)
        #expect(error?.message.hasPrefix("--shutter 'abc' is not a duration") == true)
        #expect(error?.message.contains("1/250") == true)
    }

    @Test("Positionals skip options and are consumed in order")
    func positionals() throws {
        var arguments = ArgumentList(["--json", "render", "gray-card"], command: "scene")
        let verb = try arguments.positional("a verb")
        let scene = try arguments.positional("a scene")
        #expect(verb == "render")
        #expect(scene == "gray-card")
        let error = cliError { try arguments.positional("a scene name") }
        #expect(error == .usage("scene needs a scene name — see 'camerasun help scene'"))
    }

    @Test("A leftover option is a usage error (exit 2) that names it")
    func leftoverOption() {
        var arguments = ArgumentList(["--json", "--bogus", "3"], command: "devices")
        _ = arguments.flag("json")
        let error = cliError { try arguments.finish() }
        #expect(error == .usage("unknown option '--bogus' for 'devices' — see 'camerasun help devices'"))
        #expect(error?.kind == .usage)
        #expect(error?.exitCode == 2)
    }

    @Test("A leftover positional is reported as an unexpected argument")
    func leftoverPositional() {
        let arguments = ArgumentList(["extra"], command: "devices")
        let error = cliError { try arguments.finish() }
        #expect(error == .usage("unexpected argument 'extra' for 'devices' — see 'camerasun help devices'"))
    }

    @Test("Nothing left over is not an error")
    func emptyFinishes() throws {
        try ArgumentList([], command: "devices").finish()
    }
}

@Suite("CLIError exit codes")
struct CLIErrorTests {
    @Test("Usage errors exit 2, runtime errors exit 1, and the message is the description")
    func exitCodes() {
        #expect(CLIError.usage("x — y").exitCode == 2)
        #expect(CLIError.runtime("x — y").exitCode == 1)
        #expect(CLIError.runtime("x — y").description == "x — y")
        #expect(CLIError.usage("a") != CLIError.runtime("a"))
    }
}
