import CameraCapture
import CameraCore
import CameraExposure
import CameraMetering
import CameraStills
import Foundation
import Testing
@testable import Viewfinder

/// The viewfinder page as text: what the browser tests (Tests/Browser) cannot check cheaply or
/// need to rely on. Its behaviour in a browser is tested there.
@Suite struct ViewfinderPageTests {
    /// Every id the script looks up (`$('id')`) is in the document, so no lookup yields null.
    @Test func everyElementTheScriptUsesExists() throws {
        let ids = try matches(of: #"\$\('(\w+)'\)"#, in: ViewfinderPage.script)
        #expect(ids.count > 20)
        for id in ids {
            #expect(ViewfinderPage.html.contains("id=\"\(id)\""), "the script uses #\(id), which the page lacks")
        }
    }

    /// The ids the browser tests drive.
    @Test(arguments: ["preview", "square", "brightnessValue", "advice", "lockBadge", "evSlider", "evReset", "shutter", "flashToggle", "thumb",
                      "histogram", "zebraToggle", "sunToggle", "contrastToggle", "metering", "zoom", "toast", "flickerSelect",
                      "whiteBalanceSelect", "torchToggle", "alert", "liveChip", "liveURL", "liveToggle", "liveStatus",
                      "shadowsSlider", "shadowsValue", "shadowsReset"])
    func hasTheControl(_ id: String) {
        #expect(ViewfinderPage.html.contains("id=\"\(id)\""))
    }

    /// Every label key the document and the script use has both languages, and no phrase is unused.
    @Test func everyLabelIsTranslatedAndUsed() throws {
        let inDocument = try matches(of: #"data-i18n(?:-label)?="(\w+)""#, in: ViewfinderPage.html)
        let inScript = try matches(of: #"text\.(\w+)"#, in: ViewfinderPage.script)
        let used = Set(inDocument + inScript)
        #expect(used == Set(ViewfinderPage.phrases.keys))
        for (key, phrase) in ViewfinderPage.phrases {
            #expect(!phrase.en.isEmpty && !phrase.zh.isEmpty, "\(key)")
        }
    }

    /// `?lang=zh` shows the seed article's wording; the script carries it in its dictionary.
    @Test(arguments: [("brightness", "亮度分析"), ("waiting", "等待数据..."), ("loading", "相机初始化中..."), ("dark", "暗"), ("bright", "亮")])
    func speaksTheSeedsChinese(key: String, chinese: String) {
        #expect(ViewfinderPage.phrases[key]?.zh == chinese)
        #expect(ViewfinderPage.script.contains("\"\(key)\":\"\(chinese)\""))
    }

    /// The flash button cycles through every mode `/api/photo` takes, and the shutter sends it.
    @Test func offersEveryFlashMode() throws {
        let script = ViewfinderPage.script
        let list = try #require(try matches(of: #"const FLASH_MODES = \[([^\]]*)\]"#, in: script).first)
        let modes = try matches(of: #"'(\w+)'"#, in: list)
        #expect(modes.first == PhotoSettings.FlashMode.off.rawValue, "the button starts at off")
        #expect(modes.sorted() == PhotoSettings.FlashMode.allCases.map(\.rawValue).sorted(), "the button offers what /api/photo takes")
        #expect(script.contains("post('/api/photo', bracketed ? {flash: 'off', bracket: BRACKET} : {flash: prefs.flash})"))
    }

    /// `/api/photo`'s `flash` says when the subject was out of the flash's reach, by how much: the
    /// shutter's answer puts that in the toast, in both languages.
    @Test func toastsAFlashOutOfReach() throws {
        let script = ViewfinderPage.script
        #expect(script.contains("if (asset.flash?.outOfReach) toast(text.flashOutOfReach.replace('{ev}', (-asset.flash.subjectEV).toFixed(1)))"))
        let phrase = try #require(ViewfinderPage.phrases["flashOutOfReach"])
        #expect(phrase.en.contains("{ev} EV") && phrase.zh.contains("{ev} EV"))
    }

    @Test("the bracket button's offsets are a bracket /api/photo takes, sent without the flash")
    func bracketButtonOffsets() throws {
        let list = try #require(try matches(of: #"const BRACKET = \[([^\]]*)\]"#, in: ViewfinderPage.script).first)
        let offsets = list.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(offsets == [-2, 0, 2])
        try PhotoSettings.checkBracket(offsets)
        #expect(ViewfinderPage.html.contains(#"id="bracketToggle""#))
    }

    /// The shadows slider sits in the EV card, spans the range `/api/shadows` takes, says so in
    /// both languages and sends its value there; `/state`'s `shadows` moves it.
    @Test func hasTheShadowsSliderBesideEV() throws {
        let html = ViewfinderPage.html, script = ViewfinderPage.script
        let card = try #require(html.firstRange(of: #/<section id="evCard"[\s\S]*?</section>/#).map { String(html[$0]) })
        #expect(card.contains(#"id="evSlider""#))
        let range = SunAwareExposure.shadowsRange
        #expect(card.contains(#"<input id="shadowsSlider" type="range" min="\#(Int(range.lowerBound))" max="\#(Int(range.upperBound))""#))
        #expect(ViewfinderPage.phrases["shadows"]?.zh == "阴影")
        #expect(script.contains("control('/api/shadows', {shadows: Math.round(Number($('shadowsSlider').value) * 10) / 10})"))
        #expect(script.contains("$('shadowsSlider').value = s.shadows"))
    }

    @Test func offersEveryMeteringMode() {
        for (name, _) in MeteringMode.named {
            #expect(ViewfinderPage.html.contains("data-mode=\"\(name)\""), "\(name)")
        }
    }

    /// The anti-flicker menu offers every mode `/api/flicker` takes; the white-balance menu auto,
    /// locked and the four presets as the temperatures `--awb` names them by; the torch button
    /// and the menus send their routes.
    @Test func offersTheCameraSettings() throws {
        let html = ViewfinderPage.html, script = ViewfinderPage.script
        let flicker = try #require(html.firstRange(of: #/<select id="flickerSelect"[\s\S]*?</select>/#).map { String(html[$0]) })
        #expect(try matches(of: #"value="(\w+)""#, in: flicker).sorted() == FlickerMode.allCases.map(\.rawValue).sorted())
        let balance = try #require(html.firstRange(of: #/<select id="whiteBalanceSelect"[\s\S]*?</select>/#).map { String(html[$0]) })
        #expect(try matches(of: #"value="(\w+)""#, in: balance) == ["auto", "2850", "4000", "5500", "7000", "locked", "custom"])
        for (name, _) in WhiteBalanceMode.named { #expect(balance.contains("value=\"\(name)\"")) }
        #expect(script.contains("control('/api/flicker', {mode: flickerSelect.value})"))
        #expect(script.contains("control('/api/whitebalance', /^\\d+$/.test(choice) ? {temperature: Number(choice)} : {mode: choice})"))
        #expect(script.contains("control('/api/torch', {on: !(state.torch > 0)})"))
    }

    /// The banner says each interruption reason in both languages, and the watchdog's restart.
    @Test func bannersTheInterruptionAndTheWatchdog() {
        let script = ViewfinderPage.script
        #expect(script.contains("deviceInUseByAnotherClient: text.cameraBusy, deviceRemoved: text.cameraRemoved, systemPressure: text.systemPressure"))
        for reason in [InterruptionReason.deviceInUseByAnotherClient, .deviceRemoved, .systemPressure] {
            #expect(script.contains("\(reason.rawValue): text."), "\(reason)")
        }
        #expect(ViewfinderPage.phrases["cameraBusy"]?.zh == "相机正被其他程序占用，等待释放")
        #expect(ViewfinderPage.phrases["watchdog"]?.en == "Auto-exposure restarted")
        #expect(script.contains("if (s.watchdog) lines.push(`${text.watchdog}: ${s.watchdog}`);"))
    }

    /// Nothing is loaded from another origin, and the policy says so to the browser.
    @Test func isSelfContained() {
        let html = ViewfinderPage.html
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none';"))
        #expect(!html.contains("\\#("), "an interpolation was left unfilled")
    }

    /// A server with a token needs it on every route but `/`: the page's requests all go to its own
    /// origin by path, so the browser sends the HttpOnly cookie that `/?token=` set with each of them.
    @Test func everyRequestGoesToItsOwnOriginWithTheCookie() {
        let script = ViewfinderPage.script
        let fetches = script.components(separatedBy: "fetch(").dropFirst()
        #expect(fetches.count == 4, "/api/*, /state, /sounds/NAME and /library")
        for call in fetches { #expect(call.prefix(100).contains("credentials: 'same-origin'"), "\(call.prefix(100))") }
        #expect(script.contains("new EventSource('/events')"))
        #expect(script.contains("preview.src = overlays.length ? `/stream?overlay=${overlays.join(',')}` : '/stream'"))
        #expect(script.contains("const url = `/library/${encodeURIComponent(asset.id)}`"))
    }

    private func matches(of pattern: String, in text: String) throws -> [String] {
        try text.matches(of: Regex(pattern)).compactMap { match in match.output[1].substring.map(String.init) }
    }
}
