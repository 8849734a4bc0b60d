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
        "shadows": Phrase(en: "Shadows", zh: "阴影"),
        "shadowsLabel": Phrase(en: "Shadows: lift or deepen the dark parts of the picture", zh: "阴影：提亮或压暗画面的暗部"),
        "shadowsResetLabel": Phrase(en: "Reset shadows", zh: "重置阴影"),
        "shadowsDeep": Phrase(en: "Deeper", zh: "更深"),
        "shadowsOpen": Phrase(en: "Lifted", zh: "提亮"),
        "controls": Phrase(en: "Camera controls", zh: "相机控制"),
        "shutter": Phrase(en: "Take photo", zh: "拍照"),
        "flashLabel": Phrase(en: "Flash: off, auto or on — tap to change", zh: "闪光灯：关、自动或开——点击切换"),
        "flashOff": Phrase(en: "⚡ Off", zh: "⚡ 关"),
        "flashAuto": Phrase(en: "⚡ Auto", zh: "⚡ 自动"),
        "flashOn": Phrase(en: "⚡ On", zh: "⚡ 开"),
        "lastPhoto": Phrase(en: "Open the last photo", zh: "查看最近的照片"),
        "zoom": Phrase(en: "Zoom", zh: "变焦"),
        "offline": Phrase(en: "No answer from the camera: retrying", zh: "相机无响应，正在重试"),
        "settings": Phrase(en: "Camera settings", zh: "相机设置"),
        "flicker": Phrase(en: "Anti-flicker", zh: "抗闪烁"),
        "flickerAuto": Phrase(en: "Flicker: auto", zh: "抗闪烁：自动"),
        "flicker50": Phrase(en: "Flicker: 50 Hz", zh: "抗闪烁：50 Hz"),
        "flicker60": Phrase(en: "Flicker: 60 Hz", zh: "抗闪烁：60 Hz"),
        "flickerOff": Phrase(en: "Flicker: off", zh: "抗闪烁：关"),
        "flickerSeen": Phrase(en: "flicker", zh: "闪烁"),
        "whiteBalance": Phrase(en: "White balance", zh: "白平衡"),
        "wbAuto": Phrase(en: "WB: auto", zh: "白平衡：自动"),
        "wbIncandescent": Phrase(en: "WB: incandescent 2850 K", zh: "白平衡：白炽灯 2850 K"),
        "wbFluorescent": Phrase(en: "WB: fluorescent 4000 K", zh: "白平衡：荧光灯 4000 K"),
        "wbDaylight": Phrase(en: "WB: daylight 5500 K", zh: "白平衡：日光 5500 K"),
        "wbCloudy": Phrase(en: "WB: cloudy 7000 K", zh: "白平衡：阴天 7000 K"),
        "wbLocked": Phrase(en: "WB: locked", zh: "白平衡：锁定"),
        "wbCustom": Phrase(en: "WB: custom", zh: "白平衡：自定义"),
        "torch": Phrase(en: "Torch", zh: "手电筒"),
        "hdr": Phrase(en: "HDR", zh: "HDR"),
        "raw": Phrase(en: "RAW", zh: "RAW"),
        "rawLabel": Phrase(en: "RAW + JPEG: keep each photo's raw frame as a DNG too", zh: "RAW + JPEG：同时将每张照片的原始帧保存为 DNG"),
        "bracket": Phrase(en: "±2 EV", zh: "±2 EV"),
        "bracketLabel": Phrase(en: "Bracketed photo: three frames at −2, 0 and +2 EV merged into one, less noise in the shadows",
                               zh: "包围曝光：在 −2、0、+2 EV 拍摄三帧并合成为一张，暗部噪点更少"),
        "hdrLabel": Phrase(en: "Local tone mapping (HDR)", zh: "局部色调映射（HDR）"),
        "camera": Phrase(en: "Flip", zh: "翻转"),
        "cameraLabel": Phrase(en: "Switch between the back and front cameras", zh: "切换前后摄像头"),
        "cameraBusy": Phrase(en: "The camera is in use by another program — waiting for it", zh: "相机正被其他程序占用，等待释放"),
        "cameraRemoved": Phrase(en: "The camera was disconnected — waiting for it to return", zh: "相机已断开，等待重新连接"),
        "systemPressure": Phrase(en: "The computer cannot keep up — the preview is paused", zh: "系统负载过高，预览已暂停"),
        "interrupted": Phrase(en: "The camera is interrupted", zh: "相机已中断"),
        "watchdog": Phrase(en: "Auto-exposure restarted", zh: "自动曝光已重启"),
        "mode": Phrase(en: "Photo or video", zh: "拍照或录像"),
        "photoMode": Phrase(en: "Photo", zh: "拍照"),
        "videoMode": Phrase(en: "Video", zh: "录像"),
        "record": Phrase(en: "Start or stop recording", zh: "开始或停止录像"),
        "library": Phrase(en: "Library", zh: "图库"),
        "close": Phrase(en: "Close", zh: "关闭"),
        "noAssets": Phrase(en: "No photos or movies yet", zh: "还没有照片或视频"),
        "sounds": Phrase(en: "Sounds", zh: "声音"),
        "liveLabel": Phrase(en: "Live stream", zh: "直播"),
        "liveURL": Phrase(en: "Streaming server URL with the stream key", zh: "推流地址（含串流密钥）"),
        "goLive": Phrase(en: "Go live", zh: "开始直播"),
        "endLive": Phrase(en: "End live", zh: "结束直播"),
        "flashOutOfReach": Phrase(en: "The subject was out of the flash's reach: {ev} EV under its target",
                                  zh: "主体超出闪光灯照射范围：比目标暗 {ev} EV"),
        "liveNeedsURL": Phrase(en: "Enter the server's rtmp:// URL with the stream key first", zh: "请先输入含串流密钥的 rtmp:// 推流地址"),
        "liveConnecting": Phrase(en: "Connecting", zh: "连接中"),
        "liveOn": Phrase(en: "● LIVE", zh: "● 直播中"),
        "liveStalled": Phrase(en: "Stalled — the server takes nothing", zh: "卡住了——服务器未接收数据"),
        "liveReconnecting": Phrase(en: "Reconnecting", zh: "重新连接中"),
        "liveStopped": Phrase(en: "Ended", zh: "已结束"),
        "liveFailed": Phrase(en: "Live stream failed", zh: "直播失败"),
        "liveDropped": Phrase(en: "dropped", zh: "帧丢弃"),
        "liveReconnects": Phrase(en: "reconnects", zh: "次重连"),
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
