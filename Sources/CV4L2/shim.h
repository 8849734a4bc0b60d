#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H

// The kernel's V4L2 interface (Debian linux-libc-dev) for CameraV4L2. Structs, enums and plain
// flag values import as they are; the request numbers (_IOWR…), four-character codes
// (v4l2_fourcc) and control IDs are expressions Swift cannot import, so they are values here.

#include <linux/videodev2.h>

static const unsigned long cv4l2_querycap = VIDIOC_QUERYCAP;
static const unsigned long cv4l2_enum_fmt = VIDIOC_ENUM_FMT;
static const unsigned long cv4l2_enum_framesizes = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long cv4l2_enum_frameintervals = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long cv4l2_s_fmt = VIDIOC_S_FMT;
static const unsigned long cv4l2_s_parm = VIDIOC_S_PARM;
static const unsigned long cv4l2_reqbufs = VIDIOC_REQBUFS;
static const unsigned long cv4l2_querybuf = VIDIOC_QUERYBUF;
static const unsigned long cv4l2_qbuf = VIDIOC_QBUF;
static const unsigned long cv4l2_dqbuf = VIDIOC_DQBUF;
static const unsigned long cv4l2_streamon = VIDIOC_STREAMON;
static const unsigned long cv4l2_streamoff = VIDIOC_STREAMOFF;
static const unsigned long cv4l2_queryctrl = VIDIOC_QUERYCTRL;
static const unsigned long cv4l2_g_ctrl = VIDIOC_G_CTRL;
static const unsigned long cv4l2_s_ctrl = VIDIOC_S_CTRL;
static const unsigned long cv4l2_querymenu = VIDIOC_QUERYMENU;

static const unsigned int cv4l2_pix_fmt_yuyv = V4L2_PIX_FMT_YUYV;
static const unsigned int cv4l2_pix_fmt_nv12 = V4L2_PIX_FMT_NV12;
static const unsigned int cv4l2_pix_fmt_grey = V4L2_PIX_FMT_GREY;
static const unsigned int cv4l2_pix_fmt_mjpeg = V4L2_PIX_FMT_MJPEG;
static const unsigned int cv4l2_pix_fmt_jpeg = V4L2_PIX_FMT_JPEG;
static const unsigned int cv4l2_pix_fmt_srggb8 = V4L2_PIX_FMT_SRGGB8;
static const unsigned int cv4l2_pix_fmt_sgrbg8 = V4L2_PIX_FMT_SGRBG8;
static const unsigned int cv4l2_pix_fmt_sgbrg8 = V4L2_PIX_FMT_SGBRG8;
static const unsigned int cv4l2_pix_fmt_sbggr8 = V4L2_PIX_FMT_SBGGR8;
static const unsigned int cv4l2_pix_fmt_srggb10 = V4L2_PIX_FMT_SRGGB10;
static const unsigned int cv4l2_pix_fmt_sgrbg10 = V4L2_PIX_FMT_SGRBG10;
static const unsigned int cv4l2_pix_fmt_sgbrg10 = V4L2_PIX_FMT_SGBRG10;
static const unsigned int cv4l2_pix_fmt_sbggr10 = V4L2_PIX_FMT_SBGGR10;
static const unsigned int cv4l2_pix_fmt_srggb12 = V4L2_PIX_FMT_SRGGB12;
static const unsigned int cv4l2_pix_fmt_sgrbg12 = V4L2_PIX_FMT_SGRBG12;
static const unsigned int cv4l2_pix_fmt_sgbrg12 = V4L2_PIX_FMT_SGBRG12;
static const unsigned int cv4l2_pix_fmt_sbggr12 = V4L2_PIX_FMT_SBGGR12;
static const unsigned int cv4l2_pix_fmt_srggb16 = V4L2_PIX_FMT_SRGGB16;
static const unsigned int cv4l2_pix_fmt_sgrbg16 = V4L2_PIX_FMT_SGRBG16;
static const unsigned int cv4l2_pix_fmt_sgbrg16 = V4L2_PIX_FMT_SGBRG16;
static const unsigned int cv4l2_pix_fmt_sbggr16 = V4L2_PIX_FMT_SBGGR16;

static const unsigned int cv4l2_cid_exposure_auto = V4L2_CID_EXPOSURE_AUTO;
static const unsigned int cv4l2_cid_exposure_absolute = V4L2_CID_EXPOSURE_ABSOLUTE;
static const unsigned int cv4l2_cid_gain = V4L2_CID_GAIN;
static const unsigned int cv4l2_cid_white_balance_temperature = V4L2_CID_WHITE_BALANCE_TEMPERATURE;
static const unsigned int cv4l2_cid_auto_white_balance = V4L2_CID_AUTO_WHITE_BALANCE;
static const unsigned int cv4l2_cid_focus_absolute = V4L2_CID_FOCUS_ABSOLUTE;
static const unsigned int cv4l2_cid_focus_auto = V4L2_CID_FOCUS_AUTO;
static const unsigned int cv4l2_cid_zoom_absolute = V4L2_CID_ZOOM_ABSOLUTE;
static const unsigned int cv4l2_cid_power_line_frequency = V4L2_CID_POWER_LINE_FREQUENCY;

#endif
