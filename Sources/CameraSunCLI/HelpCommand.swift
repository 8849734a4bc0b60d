/// `camerasun help [COMMAND]`: usage text, kept in step with CLI.md and the README.
enum HelpCommand {
    static let overview = """
    camerasun — a camera engine whose auto-exposure copes with the sun in frame

    usage: camerasun COMMAND [OPTIONS]

    commands:
      serve         the browser viewfinder: live preview, exposure tools, shutter (the default command)
      meter         run the camera and print each frame's analysis
      devices       list cameras with their formats and control ranges
      scene list    list the built-in simulated scenes
      scene render  render one frame of a scene to a PNG
      photo         converge auto-exposure and take N photos into the library
      record        record H.264 + AAC into the library until Ctrl-C or a limit
      stream        push the camera live to an RTMP server (nginx-rtmp, SRS, a CDN's ingest)
      library       the library of photos and movies: list, show ID, verify, repair
      ae-eval       closed-loop auto-exposure evaluation: each scene × algorithm against ground truth
      hdr-eval      bracketed photos of each scene beside the single frame, enfuse and OpenCV's Mertens
      bench SUITE   performance beside a peer: sim (render speed), metering (frame analysis), photo,
                    pipeline (frame captured → MJPEG part at a viewer), server (API beside 20 viewers),
                    tonemap (1080p HDR rendering), fusion (1080p brackets), filters (recording filters),
                    record (1080p30 takes), stream (720p30 live push), viewfinder (`make run`'s fps),
                    startup (each command to its first frame); a program of its own, camerasun-bench
      help COMMAND  show a command's options

    sources (--source): sim:SCENE, sim:hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG,median=CD],
    v4l2:/dev/videoN, file:PATH (default: the first V4L2 camera that opens, else
    sim:backlit-portrait); pan= turns the view that far right, at 10°/s after 1 s. sim:SCENE,syncmarks
    adds A/V sync marks, a test aid: the frame holding each whole second flashes and the simulated
    microphone clicks then (not in serve). A file: source plays its own sound with its pictures.

    capture flags (meter, photo, record, serve): --width W --height H --framerate F (the camera's nearest
    format is used, and a note says so when it differs; a rate outside the camera's 1–120 fps is an
    error), --seed N, --realtime|--no-realtime, --hdr on|off (local tone mapping, default on, or the
    plain global curve), --shadows N (−2…2, default 0: + lifts the shadows of the sun-aware picture
    towards the subject, − deepens them; the classic --metering modes and --shutter ignore it),
    --flicker off|50|60|auto (default auto),
    --awb auto|incandescent|fluorescent|daylight|cloudy|locked, --awbgains R,B, --lens-position P
    (0 nearest … 1 infinity), --torch.

    camerasun COMMAND --help shows a command's options; camerasun --version its version.
    Errors exit 2 for bad usage, 1 for failures.
    """

    static let commands: [String: String] = [
        "serve": """
        usage: camerasun serve [--source SPEC] [--source2 SPEC[,position=front]] [--listen HOST:PORT] [--token T]
                               [--library DIR] [--gps LAT,LON[,ALT]] [--beauty 0…1] [--lut F.cube] [--watermark [TEXT]]
                               [capture flags (camerasun help): --width W --height H --framerate F, --flicker …]
        Serves the browser viewfinder (also what bare `camerasun` does): prints the URL to open, then
        on a terminal one status line (brightness bar, EV, shutter, ISO, fps, viewers) until Ctrl-C.
        --listen defaults to 127.0.0.1:8080 (port 0 picks a free port, which the URL shows). Any
        address other than loopback needs a token: --token T (8–256 characters), or one is generated;
        the printed URL carries it, and every /api and /library request needs it. --library is where
        photos go (default $XDG_PICTURES_DIR/CameraSun, else ~/Pictures/CameraSun). The camera runs at
        1280x720 and 30 fps unless --width/--height/--framerate say otherwise, paced in real time
        unless --no-realtime; the preview is at most 960x540. --beauty, --lut and --watermark give the
        preview and the takes recorded from the page the look camerasun record gives (photos stay as
        shot); a take's own watermark text replaces --watermark's. --source2 adds a second camera
        facing the other way (a simulated one faces the front), shown picture-in-picture; POST /api/camera {"position":"front"} makes it the main one, which the
        preview (mirrored when front), the photos and the takes come from. The routes are in CLI.md;
        beside them, POST /api/raw {"on":bool} makes the shutter's photos RAW + JPEG pairs (refused,
        409, when the camera's format is not raw), /state's raw says {"on","unavailable"}, and POST
        /api/photo takes "raw":bool and "bracket":[EV,…] (the page's ±2 EV button) beside "flash".
        """,
        "meter": """
        usage: camerasun meter [--source SPEC] [--frames N] [--metering M] [--ev EV] [--shadows N] [--shutter S --gain G]
                               [capture flags (camerasun help): --width W --height H --framerate F, --flicker …]
                               [--lang en|zh] [--json]
        Runs the camera and prints each frame's analysis: brightness (mean Rec.709 luma of the
        encoded image, 0…1), linear mean, metering error in EV, exposure time, ISO, clipped and sun
        fractions, and advice (--lang zh for Chinese). --metering: average, centre, spot, spot@x,y,
        matrix or sun (sun-aware, the default); spot@x,y also meters the exposure there. The
        sun-aware exposure engine drives the camera through a capture session unless
        --shutter/--gain fix the exposure; "dropped" counts frames lost (late, out of buffers).
        With --realtime a camera that cannot keep the frame rate says so on stderr.
        --json prints one object per frame. Without --frames it runs until interrupted.
        """,
        "hdr-eval": """
        usage: camerasun hdr-eval [--scenes all|a,b] [--views LIST]… [--bracket EV,EV[,…]] [--width W] [--height H] [--json]
        A bracketed photo (--bracket, default -2,0,2 EV around the sun AE's settled exposure) of each built-in scene and
        of each view in the --views lists (as ae-eval reads them; views replace the built-in scenes
        unless --scenes is given), at 640x360, beside the single 0 EV frame and enfuse and OpenCV's
        Mertens fusing the same exposures: subject ΔEV and clipping outside light sources (ground
        truth, on the output), MEF-SSIM against the exposures, TMQI against the scene's radiance, and
        the subject's SNR measured from two renderings that differ only in their noise. Each list is
        then summed up: the bracket within the output bound, each method's median MEF-SSIM and TMQI,
        and the SNR gain on the darkest-subject scenes (those whose subject needs at least the
        bracket's longest offset of lift). --json prints {"results":[{list, scene, method, renderGainEV,
        subjectEvError, clippedFraction, mefSSIM, tmqi, subjectSnrDb, withinBound}], "summaries":[{list,
        scenes, bracketWithinBound, medians:[{method, mefSSIM, tmqi}], darkestSubjects:{scene: dB}}]}.
        """,
        "photo": """
        usage: camerasun photo [--source SPEC] [--ev EV] [--shadows N] [--metering M] [--shutter S [--gain G | --iso N]]
                               [--flash off|on|auto] [--bracket EV,EV[,…] [--bracket-frames]] [--raw] [--count N] [--library DIR]
                               [--quality Q] [--no-zsl]
                               [--gps LAT,LON[,ALT]] [capture flags (camerasun help): --width W --height H --framerate F, --flicker …] [--json]
        Checks that the library's disk has room for the whole burst, waits for auto-exposure to
        settle (at most 150 frames, then warns and goes on), then takes --count photos (1…1000,
        default 1) as overlapping requests and writes each into the library (--library DIR, default
        $XDG_PICTURES_DIR/CameraSun) as it finishes: JPEG at --quality (1…100, default 90) with EXIF,
        fsynced, then catalogued with its exposure and metering statistics. Zero shutter lag takes
        the frame current at each request; --no-zsl waits for the next one. --width/--height
        default to 1920x1080. --shutter fixes the exposure (--gain defaults to 1; a shutter longer
        than a frame lowers the frame rate); otherwise --ev biases auto-exposure and --shadows (−2…2)
        lifts (+) or deepens (−) the shadows of its picture (sun metering only); --metering as for
        meter. --flash on fires the flash for every photo, auto when the scene is dim (below 10
        cd/m²), off (the default) never: the ISO is held to 400 at most, a pre-flash finds the
        subject (what it lights best), then the flash fires at the power that puts the subject
        where the picture without it would put its subject (the scene keeps its lamps and its
        night) — full power and a warning ("subject out of the flash's reach: 0.4 EV under its
        target") when that is not enough — and the photo is the flash's frame (never zero shutter lag). A camera
        without a flash refuses on. --bracket -2,0,2 takes a frame at each EV offset (2…5 of them)
        from auto-exposure's exposure, white balance and focus held, and merges them (aligned, what
        moved taken from the frame nearest 0 EV) into one photo with less noise in the shadows, its
        EXIF a composite of that many frames; it needs the camera's raw frames. --bracket-frames
        also keeps each frame as a photo of its own at its own exposure (EXIF auto bracket), listed
        after the merged one ("photo 1/1 frame 2/3"; bracketFrames in --json). --raw saves each
        photo as a RAW + JPEG pair, one asset in the library: the JPEG and a DNG (ID.dng beside it)
        of the raw frame it was developed from (a bracket's frame nearest 0 EV), with the same
        exposure tags; it needs the camera's raw frames too. --json prints {"assets":[…]}, each with id, path (absolute),
        width, height, exposureTime, iso, evBias, meteringMode, flash, flashFired, and when it fired
        flashPower (0…1), flashOutOfReach and flashSubjectEV (the subject against its target), rawPath (the DNG, with --raw), bracketFrames (with --bracket-frames) and shutterToFileMs (request → fsynced
        files and catalogue row). A photo the library cannot take is named on stderr with the reason
        and kept (both files of a pair) in $TMPDIR/camerasun-rescue; the others go on and the exit code is 1.
        """,
        "record": """
        usage: camerasun record [--source SPEC] [--duration S] [--max-size MB] [--min-free MB]
                                [--audio sim|alsa:DEVICE|none] [--watermark [TEXT]] [--lut F.cube] [--beauty 0…1]
                                [--library DIR] [--json] [capture flags (camerasun help)]
        Records the camera (default 1280x720 at 30 fps, in real time) as H.264 with AAC sound in
        fragmented MP4 into the library until Ctrl-C, SIGTERM or a limit: --duration seconds,
        --max-size megabytes of file, --min-free megabytes left on the disk. A limit or a signal
        ends the take cleanly: it is flushed, read back and checked, named and catalogued. A
        progress line shows the time, size, frames and drops on a terminal; --json prints
        {"asset":{id,path,duration,frames,size,video,audio,stopReason,recovered}}. --audio sim
        records the simulated microphone (clicking at each second with a sim:SCENE,syncmarks
        source, on the frame that flashes); alsa:DEVICE a microphone (arecord -L lists them), its
        sound placed by the time frames arrive; none records the picture alone. Without --audio a
        file: source records its own sound, any other the simulated microphone. A source that fails
        mid-take ends it (stopReason sourceFailed): the take is saved, and the exit code is 1. A disk that
        fills up ends the take at its last whole second, saved and catalogued (stopReason
        diskFull). A take cut off by a crash is recovered by camerasun library repair.
        Filters, in this order: --beauty smooths skin (0 off … 1 strongest), --lut grades
        through a 3D LUT in a .cube file, --watermark burns in each frame's date and time, with
        TEXT above it when given. The preview and photos stay unfiltered.
        """,
        "stream": """
        usage: camerasun stream --to rtmp://HOST[:PORT]/APP/KEY [--source SPEC] [--bitrate KBPS]
                                [--duration S] [--audio sim|alsa:DEVICE|none] [--record] [--library DIR] [--json]
                                [capture flags (camerasun help)]
        Pushes the camera (default 1280x720 at 30 fps) live as H.264 (--bitrate kilobits a second,
        default 2500) with AAC sound in FLV over RTMP until Ctrl-C, SIGTERM or --duration seconds.
        A lost server is reconnected (after 2 s, then 1.5 times longer, at most 5 s apart), each
        new connection starting on a keyframe; a link slower than the bitrate drops whole groups
        of pictures, counted. A status line shows the state, bitrate, frames sent and dropped and
        the reconnects; --json prints {state, url, bitrateKbps, sentFrames, droppedFrames,
        droppedGroups, queuedSeconds (media waiting to be sent, at most 2 s), reconnects, elapsed,
        error} each second and once at the end. --audio alsa:DEVICE streams a microphone (arecord -L
        lists them); without --audio a file: source streams its own sound, any other the simulated
        microphone. --record also keeps the stream in the library as a take (the stream's own encode, so
        no second encoder runs; the take goes on while the server is away). The stream key is never printed.
        """,
        "devices": """
        usage: camerasun devices [--json]
        Lists the cameras found with their formats, frame-rate ranges and control ranges.
        """,
        "scene": """
        usage: camerasun scene list [--json]
               camerasun scene render SCENE --out F.png [--ev EV] [--shadows N] [--hdr on|off | --shutter S --gain G | --iso N]
                                      [--width W --height H] [--seed N] [--json]
        SCENE is a built-in scene name or hdr=FILE[,yaw=DEG,pitch=DEG,fov=DEG,pan=DEG,median=CD].
        Test scenes, not listed (scene list --json has them as testScenes), work wherever a scene
        name does: moving-subject (a ball rolling across backlit-portrait, for HDR ghost tests).
        Without --shutter/--gain CameraSun's AE settles on the scene (45 frames) and the PNG is the
        picture it renders: the sensor exposed for the highlights, the subject lifted by the tone
        mapper, local (--hdr on, the default) or the plain global curve (--hdr off), the shadows
        lifted further (--shadows up to 2) or less (down to −2) than the AE chose. With them the
        frame is rendered as exposed: --shutter takes 4000 (µs), 4000us, 4ms, 0.004s or 1/250;
        --gain is analogue gain (1 = ISO 50); --gain or --iso alone puts the subject at its intent.
        """,
        "ae-eval": """
        usage: camerasun ae-eval [--scenes all|a,b] [--scene-file F.hdr[,yaw=,pitch=,fov=,pan=,median=] --subject x,y,w,h [--intent EV]]…
                                 [--views LIST]… [--algorithms naive,centre,libcamera,sun] [--frames N]
                                 [--width W --height H] [--seed N] [--hdr on|off] [--json [--samples]] [--report F.html]
        Runs each scene × algorithm in closed loop on the simulated camera (--frames, default 120, at
        --width x --height, default 320x180, sensor noise from --seed, default 1): raw frames,
        rendered by CameraSun's image pipeline, judged on the output picture against ground truth:
        frames to converge (within ⅙ EV of the settled exposure), subject ΔEV (log2 of the subject's
        mean linear output over 0.18 × 2^intent, over the last 10 frames), the output's clipped
        (≥ 250/255, outside light sources) and crushed (≤ 5/255) fractions, oscillations after
        converging, TMQI against the scene's radiance (and of the same frame through the global
        curve, "TMQI off"), the subject's SNR at the sensor and its output noise (PSNR of the picture
        against the same pipeline fed the frame without sensor noise), the sensor exposure and the
        render gain (EV), and whether the exposure sat at the camera's limit; the sun AE runs each
        view again at dusk (its median at 5 cd/m²) and "dusk EV" is how much the mean output level
        changes. The verdict: within (the subject in the natural band, from 1 EV below to ⅓ EV above
        its intent, no more than 2% clipped), too bright, too dark or clipped; under the table a line
        per algorithm counts them, a line per set (the built-in scenes, each --views list) sums up
        the sun AE against the best OpenCV mapper, --hdr on against off and dusk, and the ten
        darkest subjects are listed with their output noise. naive is the seed article's loop, centre its
        60% centre crop, libcamera the Raspberry Pi AGC's way — all three rendered with the plain
        global curve — and sun CameraSun's two-part exposure, tone-mapped locally (--hdr on, the
        default) or with the global curve (--hdr off). OpenCV's Reinhard, Mantiuk and Drago tone
        mappers render the sun loop's last linear frame as peers, in rows of their own.
        --scene-file evaluates a real HDR image with a subject rectangle (normalised, top-left
        origin; along a pan= a band, x=0 and w=1) and an intent in EV from mid-grey (-8…2.4,
        default 0). --views reads such views from a list, one per line: FILE[,yaw=,pitch=,fov=]
        x,y,w,h INTENT WHY (a bare file name is in make scenes' cache, e.g. eval/hdr-views.txt; a
        path with a folder is relative to the list, e.g. eval/real-scenes.txt's scenes/Garden.hdr).
        With scene files or views, --scenes adds built-in scenes. --report writes an HTML report:
        the table, and per scene the subject and why, each algorithm's last frame (the sun AE's with
        --hdr off beside it, up to 640 px wide) with the subject outlined, and plots of exposure and
        subject brightness. --json prints {"results":[…]}, with tmqi, globalTmqi, subjectPsnrDb,
        subjectBelowHighlightsEV and duskEV where measured;
        --samples adds each run's frames to it ("samples":[{"frame","time","exposureEV",
        "subjectEV","clippedFraction"}]), e.g. to find a pan's largest step from frame to frame.
        """,
        "bench": """
        usage: camerasun bench sim|metering|photo|pipeline|server|tonemap|fusion|filters|record|stream|viewfinder|startup [--frames N] [--json]
        Runs camerasun-bench, the program beside camerasun that holds the benchmarks (make build builds both).
        sim: renders 1920x1080 bgra8 and nv12 frames of backlit-portrait on one core (ms per frame).
        metering: analyses 1080p and 4K bgra8 and 1080p nv12 frames on one core beside a bare
        memory read (C, psadbw) and OpenCV (python3-opencv) doing the same, in the same run.
        photo: shutter → fsynced file + catalogue row at 1080p and 4K (median and p95 of single
        shots), burst photos/s at 1080p, and our JPEG + EXIF encode beside a bare libjpeg-turbo
        encode of the same frame; in a temporary library.
        pipeline: serves the viewfinder on serve's default camera (raw 1280x720, HDR and denoising on)
        and times each frame from capture until its 960x540 MJPEG part is read whole by a client on
        this machine (p50, p95), beside a bare libjpeg-turbo encode of the same preview frames.
        server: 20 /stream viewers of a 960x540 camera: the API round trip (p50, p95) beside the same
        calls with no viewers, and the slowest viewer's fps beside the camera's.
        tonemap: renders a developed 1080p raw frame of backlit-portrait (at the exposure and render
        gain the sun AE settles at) to bgra8 on one core, tone-mapped locally and with the global
        curve, beside OpenCV's Reinhard, Mantiuk and Drago tone mappers on the same linear frame;
        the denoiser's cost beside OpenCV's bilateral filter; and the whole render of a stream's
        frame (develop, denoise spatially and temporally, local tone map, sRGB encode) beside the
        fastest of OpenCV's mappers.
        fusion: a -2/0/+2 EV bracket of 1080p raw frames of backlit-portrait merged, developed and
        tone-mapped into one bgra8 picture on one core, beside enfuse and OpenCV's Mertens fusing the
        same three exposures (each rendered to sRGB as the camera's own picture); then bracketed
        photos on the simulated camera streaming 1080p raw at 30 fps, request → saved file in a
        temporary library (median, p95; goal ≤ 400 ms), beside single-frame photos on the same session.
        filters: a 33³ LUT on a 1080p bgra8 frame beside FFmpeg's lut3d, and the beauty filter on
        backlit-portrait and on all-skin frames beside OpenCV's guided filter, each beside a memory read.
        record: 90 frames of 1080p encoded by CameraSun and by ffmpeg -c:v libx264 with the same
        settings (fps); then a take through the viewfinder on serve's default camera at 1080p30 (raw,
        HDR and denoising on, in real time) with its preview watched and 3A running: frames dropped, CPU (cores) beside ffmpeg -re encoding the
        same frames for as long, and resident memory's growth from 10 s in to the end.
        viewfinder: `camerasun serve`'s default viewfinder (raw 1280x720 backlit-portrait at 30 fps,
        HDR and denoising on) with one /stream viewer: the viewer's fps beside the camera's, the
        camera's beside the 30 it is asked for, the slowest second of each, and the cores used.
        startup: the camerasun beside camerasun-bench started as a user starts it, on sim:backlit-portrait,
        timed from the launch (seconds, median of the starts): serve until a viewer has read the first
        /stream JPEG; record until the take's first fragment is whole in its file, beside ffmpeg -re
        writing its test pattern (testsrc2, 720p30, with a tone) to a fragmented MP4; stream until
        nginx-rtmp (started on loopback) has recorded the first picture, beside ffmpeg pushing its
        test pattern; photo at 1920x1080 until it exits with the photo saved, beside ffmpeg writing
        one 1080p JPEG of its test pattern.
        --frames sets the number of timed runs (median reported; photo: shots per size, default 20;
        fusion: also the bracketed and the single photos, default 10 each;
        pipeline: frames timed, default 60; record: the take's seconds, default 60;
        viewfinder: seconds, default 60; startup: starts of each command, default 3).
        """,
        "library": """
        usage: camerasun library list|show ID|verify|repair [--library DIR] [--json]
        The photo library (default $XDG_PICTURES_DIR/CameraSun, else ~/Pictures/CameraSun): list
        the catalogued assets, show one, verify files against the catalogue (missing files, orphan
        files, hash mismatches, files left half-written; exit 1 when a problem is found), and
        repair what can be repaired (orphan photos are catalogued, half-written files removed,
        rows whose file is gone marked missing — no row is ever deleted).
        """,
        "help": "usage: camerasun help [COMMAND]",
    ]

    static func run(_ arguments: ArgumentList, terminal: Terminal) throws(CLIError) {
        var arguments = arguments
        guard let topic = try? arguments.positional("a command") else {
            terminal.print(overview)
            return
        }
        // `help scene render` shows the help of `scene`: sub-commands share their command's page.
        while (try? arguments.positional("")) != nil {}
        try arguments.finish()
        guard let text = commands[topic] else {
            throw .usage("no help for '\(topic)' — commands are \(commands.keys.sorted().joined(separator: ", "))")
        }
        terminal.print(text)
    }
}
