import CameraCore

extension SimulatedCamera {
    /// The scene, the lens image cached between frames, and the sensor read-out.
    struct Renderer {
        let scene: SimulatedScene
        let viewSize: PixelSize
        private var readout: SensorReadout
        private var sceneImage: SceneImage?
        private var lensImage: (lensPosition: Double, torchLevel: Double, image: RadianceImage, packed: PackedRadiance)?
        private var zoomedImage: (zoom: Double, originX: Int, packed: PackedRadiance)?

        init(scene: SimulatedScene, viewSize: PixelSize, sensor: SensorModel) {
            self.scene = scene
            self.viewSize = viewSize
            readout = SensorReadout(model: sensor)
        }

        mutating func render(_ plan: FramePlan, seed: UInt64, into buffer: PixelBuffer) {
            let image = paintedScene()
            let metadata = plan.metadata
            if lensImage?.lensPosition != metadata.lensPosition || lensImage?.torchLevel != plan.torchLevel {
                let torch = Float(plan.torchLevel) * SimulatedCamera.torchRadiance
                let optical = Optics.image(of: image, lensPosition: metadata.lensPosition, torchRadiance: torch)
                lensImage = (metadata.lensPosition, plan.torchLevel, optical, PackedRadiance(optical))
                zoomedImage = nil
            }
            var optical = lensImage!.packed
            var originX = scene.viewOrigin(at: plan.presentationTime.seconds, imageWidth: image.width, viewWidth: viewSize.width)
            if metadata.zoomFactor != 1 {
                if zoomedImage?.zoom != metadata.zoomFactor || zoomedImage?.originX != originX {
                    let zoomed = Optics.zoom(lensImage!.image, originX: originX, viewWidth: viewSize.width, factor: metadata.zoomFactor)
                    zoomedImage = (metadata.zoomFactor, originX, PackedRadiance(zoomed))
                }
                optical = zoomedImage!.packed
                originX = 0
            }
            let exposure = metadata.exposureDuration.seconds
            let start = plan.presentationTime.seconds
            let rowLight = (0..<viewSize.height).map { row in
                Float(scene.illumination.meanFactor(from: start + Double(row) * metadata.rowReadoutTime, duration: exposure))
            }
            var rng = NoiseSource.stream(seed: seed, frame: plan.index)
            readout.read(optical, originX: originX,
                         exposure: ExposureValues(duration: exposure, analogueGain: metadata.analogueGain,
                                                  digitalGain: metadata.digitalGain, whiteBalance: metadata.whiteBalanceGains,
                                                  illuminant: plan.illuminant),
                         rowLight: rowLight, noise: &rng, into: buffer)
        }

        mutating func groundTruth(at time: Double, zoom: Double) -> SimulatedGroundTruth {
            let image = paintedScene()
            let originX = scene.viewOrigin(at: time, imageWidth: image.width, viewWidth: viewSize.width)
            func view(_ mask: [UInt8]) -> [UInt8] {
                Optics.viewMask(mask, imageWidth: image.width, originX: originX, viewSize: viewSize, zoom: zoom)
            }
            return SimulatedGroundTruth(size: viewSize, subjectMask: view(image.subjectMask), sunMask: view(image.sunMask),
                                        subjectIntent: scene.subjectIntent)
        }

        private mutating func paintedScene() -> SceneImage {
            if let sceneImage { return sceneImage }
            let image = scene.render(viewSize: viewSize)
            sceneImage = image
            return image
        }
    }
}
