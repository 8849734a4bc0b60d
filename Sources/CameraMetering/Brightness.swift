import CameraCore
