import CameraCore

extension SimulatedCamera {
    /// The scene, the lens image cached between frames, and the sensor read-out.
    struct Renderer {
        let scene: SimulatedScene
        let viewSize: PixelSize
        private var readout: SensorReadout
        /// Each row's light factor during its exposure, kept between frames.
        private var rowLight: [Float] = []
        private var sceneImage: SceneImage?
        private var lensImage: (lensPosition: Double, torchLevel: Double, image: RadianceImage, packed: PackedRadiance)?
        /// The zoomed view, cached for its zoom, pan and — in a scene with a moving object — time.
        private var zoomedImage: (zoom: Double, originX: Int, objectTime: Double?, image: RadianceImage, packed: PackedRadiance)?

        init(scene: SimulatedScene, viewSize: PixelSize, sensor: SensorModel) {
            self.scene = scene
            self.viewSize = viewSize
            readout = SensorReadout(model: sensor)
        }

        mutating func render(_ plan: FramePlan, seed: UInt64, into buffer: PixelBuffer) {
            let metadata = plan.metadata
            let exposure = metadata.exposureDuration.seconds
            let start = plan.presentationTime.seconds
            let mark = plan.syncMark ? SimulatedCamera.syncMarkGain : 1
            if rowLight.count != viewSize.height { rowLight = [Float](repeating: 0, count: viewSize.height) }
            for row in 0..<viewSize.height {
                rowLight[row] = mark * Float(scene.illumination.meanFactor(from: start + Double(row) * metadata.rowReadoutTime, duration: exposure))
            }
            let ambient = ambientImage(for: plan)
            let optical = metadata.flashPower.map { power in
                flashLit(power: power, ambient: ambient.image, plan: plan, rowLight: rowLight)
            } ?? ambient.packed
            var rng = NoiseSource.stream(seed: seed, frame: plan.index)
            readout.read(optical, originX: ambient.originX,
                         exposure: ExposureValues(duration: exposure, analogueGain: metadata.analogueGain,
                                                  digitalGain: metadata.digitalGain, whiteBalance: metadata.whiteBalanceGains,
                                                  illuminant: plan.illuminant),
                         rowLight: rowLight, noise: &rng, into: buffer)
        }

        /// The optical image of the scene and the torch through the lens and zoom, cached while
        /// the lens, torch, zoom and pan stay (the moving object, if any, painted on each frame);
        /// and the column the view starts at in it (0 when zoomed: the zoomed image is the view).
        private mutating func ambientImage(for plan: FramePlan) -> (image: RadianceImage, packed: PackedRadiance, originX: Int) {
            let image = paintedScene()
            let metadata = plan.metadata
            let torch = Float(plan.torchLevel) * SimulatedCamera.torchRadiance
            if lensImage?.lensPosition != metadata.lensPosition || lensImage?.torchLevel != plan.torchLevel {
                let optical = Optics.image(of: image, lensPosition: metadata.lensPosition, cameraLight: torch)
                lensImage = (metadata.lensPosition, plan.torchLevel, optical, PackedRadiance(optical))
                zoomedImage = nil
            }
            let time = plan.presentationTime.seconds
            let still = (image: lensImage!.image, packed: lensImage!.packed)
            let lens = scene.movingObject.map { Renderer.painting($0, at: time, cameraLight: torch, on: still) } ?? still
            let originX = panOrigin(at: plan, imageWidth: image.width)
            guard metadata.zoomFactor != 1 else { return (lens.image, lens.packed, originX) }
            let objectTime = scene.movingObject == nil ? nil : time
            if zoomedImage?.zoom != metadata.zoomFactor || zoomedImage?.originX != originX || zoomedImage?.objectTime != objectTime {
                let zoomed = Optics.zoom(lens.image, originX: originX, viewWidth: viewSize.width, factor: metadata.zoomFactor)
                zoomedImage = (metadata.zoomFactor, originX, objectTime, zoomed, PackedRadiance(zoomed))
            }
            let zoomed = zoomedImage!
            return (zoomed.image, zoomed.packed, 0)
        }

        /// The optical image `lens` with `object` painted where it is at `time`, lit by the camera's
        /// light like the surfaces around it. It is painted behind the lens, so it is sharp at any
        /// focus, and only its rows are packed again.
        private static func painting(_ object: MovingObject, at time: Double, cameraLight: Float,
                                     on lens: (image: RadianceImage, packed: PackedRadiance)) -> (image: RadianceImage, packed: PackedRadiance) {
            var (image, packed) = lens
            let radiance = object.radiance + Optics.addedLight(cameraLight, albedo: object.albedo, depth: object.depth)
            var rows = Int.max..<Int.max
            object.forEachPixel(at: time, imageSize: PixelSize(width: image.width, height: image.height)) { x, y in
                image[x, y] = radiance
                rows = rows.isEmpty ? y..<(y + 1) : min(rows.lowerBound, y)..<max(rows.upperBound, y + 1)
            }
            packed.repack(image, rows: rows)
            return (image, packed)
        }

        /// The `ambient` image (`ambientImage`'s, zoomed when the view is) plus the flash's pulse, for
        /// this frame alone. The pulse's energy is spread over the exposure as a radiance, so that
        /// the read-out, which multiplies radiance by the exposure time, gives the same energy at
        /// any exposure; and each row's share is divided by the row's light factor, which the
        /// read-out multiplies back in: the scene's light steps and mains flicker do not scale it.
        private mutating func flashLit(power: Double, ambient: RadianceImage, plan: FramePlan, rowLight: [Float]) -> PackedRadiance {
            let metadata = plan.metadata
            var unlit = scene.objectPlaced(in: paintedScene(), at: plan.presentationTime.seconds)
            unlit.radiance = RadianceImage(width: unlit.width, height: unlit.height)
            let light = Float(power) * SimulatedCamera.flashEnergy / Float(metadata.exposureDuration.seconds)
            var flash = Optics.image(of: unlit, lensPosition: metadata.lensPosition, cameraLight: light)
            if metadata.zoomFactor != 1 {
                let originX = panOrigin(at: plan, imageWidth: unlit.width)
                flash = Optics.zoom(flash, originX: originX, viewWidth: viewSize.width, factor: metadata.zoomFactor)
            }
            var lit = ambient
            let rowLength = lit.width * 3
            for y in 0..<lit.height {
                let share = 1 / max(rowLight[y], 1e-6)
                for i in (y * rowLength)..<((y + 1) * rowLength) { lit.samples[i] += flash.samples[i] * share }
            }
            return PackedRadiance(lit)
        }

        private func panOrigin(at plan: FramePlan, imageWidth: Int) -> Int {
            scene.viewOrigin(at: plan.presentationTime.seconds, imageWidth: imageWidth, viewWidth: viewSize.width)
        }

        /// The truth of the view at `time` and `zoom` through a lens at `lensPosition`, the scene lit
        /// by `illuminant` (channel factors).
        mutating func groundTruth(at time: Double, zoom: Double, lensPosition: Double, illuminant: SIMD3<Float>) -> SimulatedGroundTruth {
            let image = scene.objectPlaced(in: paintedScene(), at: time)
            let originX = scene.viewOrigin(at: time, imageWidth: image.width, viewWidth: viewSize.width)
            func view(_ mask: [UInt8]) -> [UInt8] {
                Optics.viewMask(mask, imageWidth: image.width, originX: originX, viewSize: viewSize, zoom: zoom)
            }
            let objectMask = scene.movingObject.map { view($0.mask(at: time, imageSize: PixelSize(width: image.width, height: image.height))) }
            let light = SIMD3<Double>(scene.subjectLight * illuminant)
            return SimulatedGroundTruth(size: viewSize, subjectMask: view(image.subjectMask), sunMask: view(image.sunMask),
                                        objectMask: objectMask ?? [UInt8](repeating: 0, count: viewSize.pixelCount),
                                        neutralMask: view(image.neutralMask(under: scene.subjectLight, seenAs: optical(of: image, lensPosition))),
                                        subjectLight: light / ColorTemperature.luminance(light), subjectIntent: scene.subjectIntent)
        }

        /// `image` as the lens at `lensPosition` images it, without the camera's light (the cached
        /// lens image when it is that).
        private func optical(of image: SceneImage, _ lensPosition: Double) -> RadianceImage {
            if scene.movingObject == nil, let lensImage, lensImage.lensPosition == lensPosition, lensImage.torchLevel == 0 {
                return lensImage.image
            }
            return Optics.image(of: image, lensPosition: lensPosition, cameraLight: 0)
        }

        private mutating func paintedScene() -> SceneImage {
            if let sceneImage { return sceneImage }
            let image = scene.render(viewSize: viewSize)
            sceneImage = image
            return image
        }
    }
}
