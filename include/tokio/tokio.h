/*
 * tokio/tokio.h - everything libtokio offers.
 */
#ifndef TOKIO_TOKIO_H
#define TOKIO_TOKIO_H

#include "tokio/common.h"
#include "tokio/config.h"
#include "tokio/input.h"
#include "tokio/output.h"
#include "tokio/time.h"
#include "tokio/util.h"
#include "tokio/tools/common.h"

#endif
