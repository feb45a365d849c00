"""The image worker's settings."""

from __future__ import annotations

import cv2

from identification import worker


async def test_image_work_runs_opencv_on_the_workers_own_thread_count():
    # OpenCV's thread pool on top of onnxruntime's threads cost CPU for no gain on a busy machine
    assert await worker.run_cpu(cv2.getNumThreads) == worker.CV_THREADS == 1
