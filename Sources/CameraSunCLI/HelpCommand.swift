/// `camerasun help [COMMAND]`: usage text, kept in step with CLI.md and the README.
enum HelpCommand {
    static let overview = """
    camerasun — a camera engine whose auto-exposure copes with the sun in frame

    usage: camerasun COMMAND [OPTIONS]

    commands:
      meter         run the camera and print per-frame brightness (the default command for now)
      devices       list cameras with their formats and control ranges
      scene list    list the built-in simulated scenes
      scene render  render one frame of a scene to a PNG
      bench sim     measure the simulated camera's render speed
      help COMMAND  show a command's options

    sources (--source): sim:SCENE, sim:hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG]
    (default: sim:backlit-portrait). Errors exit 2 for bad usage, 1 for failures.
    """

    static let commands: [String: String] = [
        "meter": """
        usage: camerasun meter [--source SPEC] [--frames N] [--ev EV] [--shutter S --gain G]
                               [--width W --height H --framerate F] [--seed N] [--realtime|--no-realtime] [--json]
        Runs the camera and prints each frame's brightness (mean Rec.709 luma of the encoded image,
        0…1), exposure time, ISO and clipped fraction. Until the exposure engine lands the exposure
        is fixed: --shutter/--gain, else one computed from the scene's ground truth.
        --json prints one object per frame. Without --frames it runs until interrupted.
        """,
        "devices": """
        usage: camerasun devices [--json]
        Lists the cameras found with their formats, frame-rate ranges and control ranges.
        """,
        "scene": """
        usage: camerasun scene list [--json]
               camerasun scene render SCENE --out F.png [--ev EV] [--shutter S --gain G | --iso N]
                                      [--width W --height H] [--seed N] [--json]
        SCENE is a built-in scene name or hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG].
        --shutter takes 4000 (µs), 4000us, 4ms, 0.004s or 1/250; --gain is analogue gain
        (1 = ISO 50). Without --shutter/--gain the exposure puts the subject at its intent.
        """,
        "bench": """
        usage: camerasun bench sim [--frames N] [--json]
        Renders 1920x1080 bgra8 and nv12 frames of backlit-portrait on one core and reports ms per
        frame and frames per second.
        """,
        "help": "usage: camerasun help [COMMAND]",
    ]

    static func run(_ arguments: ArgumentList, terminal: Terminal) throws(CLIError) {
        var arguments = arguments
        guard let topic = try? arguments.positional("a command") else {
            terminal.print(overview)
            return
        }
        try arguments.finish()
        guard let text = commands[topic] else {
            throw .usage("no help for '\(topic)' — commands are \(commands.keys.sorted().joined(separator: ", "))")
        }
        terminal.print(text)
    }
}
