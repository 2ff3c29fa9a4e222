#!/usr/bin/env bash
# Formats the Swift sources in place with the checked-in .swift-format configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format --in-place --recursive --configuration .swift-format Sources Tests Package.swift
