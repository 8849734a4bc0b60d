import Foundation

extension ViewfinderPage {
    /// One label of the page in each language it speaks.
    struct Phrase: Sendable {
        let en: String
        let zh: String
    }

    /// The page's labels by key, used by the HTML's `data-i18n` (text) and `data-i18n-label`
    /// (aria-label) attributes and by the script. The Chinese is the seed article's wording where it
    /// has one (亮度分析, 等待数据..., 相机初始化中..., 暗, 亮).
    static let phrases: [String: Phrase] = [
        "preview": Phrase(en: "Live preview: tap to meter and focus, hold to lock", zh: "实时预览：轻点测光对焦，长按锁定"),
        "loading": Phrase(en: "Camera initialising…", zh: "相机初始化中..."),
        "brightness": Phrase(en: "Brightness", zh: "亮度分析"),
        "brightnessBar": Phrase(en: "Frame brightness against the target", zh: "画面亮度与目标亮度"),
        "waiting": Phrase(en: "Waiting for data…", zh: "等待数据..."),
        "lock": Phrase(en: "AE/AF LOCK", zh: "AE/AF 锁定"),
        "histogram": Phrase(en: "Histogram", zh: "直方图"),
        "overlays": Phrase(en: "Overlays and display", zh: "辅助显示"),
        "zebra": Phrase(en: "Zebra", zh: "斑马纹"),
        "sunMask": Phrase(en: "Sun mask", zh: "太阳遮罩"),
        "highContrast": Phrase(en: "High contrast", zh: "高对比度"),
        "otherLanguage": Phrase(en: "中文", zh: "English"),
        "metering": Phrase(en: "Metering mode", zh: "测光模式"),
        "average": Phrase(en: "Average", zh: "平均"),
        "centre": Phrase(en: "Centre", zh: "中央重点"),
        "spot": Phrase(en: "Spot", zh: "点测光"),
        "matrix": Phrase(en: "Matrix", zh: "矩阵"),
        "sun": Phrase(en: "Sun", zh: "太阳"),
        "exposure": Phrase(en: "Exposure compensation", zh: "曝光补偿"),
        "dark": Phrase(en: "Dark", zh: "暗"),
        "bright": Phrase(en: "Bright", zh: "亮"),
        "reset": Phrase(en: "Reset", zh: "重置"),
        "resetLabel": Phrase(en: "Reset exposure compensation", zh: "重置曝光补偿"),
        "controls": Phrase(en: "Camera controls", zh: "相机控制"),
        "shutter": Phrase(en: "Take photo", zh: "拍照"),
        "flashLabel": Phrase(en: "Flash: off, auto or on — tap to change", zh: "闪光灯：关、自动或开——点击切换"),
        "flashOff": Phrase(en: "⚡ Off", zh: "⚡ 关"),
        "flashAuto": Phrase(en: "⚡ Auto", zh: "⚡ 自动"),
        "flashOn": Phrase(en: "⚡ On", zh: "⚡ 开"),
        "lastPhoto": Phrase(en: "Open the last photo", zh: "查看最近的照片"),
        "zoom": Phrase(en: "Zoom", zh: "变焦"),
        "offline": Phrase(en: "No answer from the camera: retrying", zh: "相机无响应，正在重试"),
    ]

    /// `{"en":{key:label,…},"zh":{…}}`, the dictionary the script reads.
    static var phrasesJSON: String {
        let byLanguage = [
            "en": phrases.mapValues(\.en),
            "zh": phrases.mapValues(\.zh),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A dictionary of strings always encodes.
        return String(decoding: (try? encoder.encode(byLanguage)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
