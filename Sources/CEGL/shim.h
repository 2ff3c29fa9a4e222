#ifndef MAPWRIGHT_CEGL_SHIM_H
#define MAPWRIGHT_CEGL_SHIM_H
#define EGL_EGLEXT_PROTOTYPES 1
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#endif
