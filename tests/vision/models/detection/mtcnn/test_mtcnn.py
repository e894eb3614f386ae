import tracemalloc

import numpy
import pytest

import vision.models
from framework.serializers import save_npz
from vision.models.detection.mtcnn import MTCNN


def random_model(**kwargs):
    numpy.random.seed(0)
    return MTCNN(pretrained_model=None, **kwargs)


def image(shape, seed=0):
    return numpy.random.RandomState(seed).randint(0, 256, shape).astype(numpy.float32)


def assert_empty(bbox, label, score, point):
    assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32
    assert score.shape == (0,) and score.dtype == numpy.float32
    assert point.shape == (0, 5, 2) and point.dtype == numpy.float32


def test_is_registered_and_exported():
    assert vision.models.get_model('mtcnn') is vision.models.MTCNN is MTCNN
    assert MTCNN.task == 'detection'


def test_random_weights_keep_the_contract():
    # Every stage lets everything through, so boxes reach the end.
    model = random_model(thresholds=(0, 0, 0))
    imgs = [image((3, 40, 50)), image((3, 45, 30), 1)]
    bboxes, labels, scores, points = model.predict(imgs)
    assert len(bboxes) == len(labels) == len(scores) == len(points) == 2
    for bbox, label, score, point in zip(bboxes, labels, scores, points):
        assert len(bbox) > 0
        assert bbox.dtype == numpy.float32 and bbox.shape == (len(bbox), 4)
        assert label.dtype == numpy.int32 and (label == 0).all()
        assert score.dtype == numpy.float32 and score.shape == (len(bbox),)
        assert (numpy.diff(score) <= 0).all() and ((score >= 0) & (score <= 1)).all()
        assert point.dtype == numpy.float32 and point.shape == (len(bbox), 5, 2)


def test_no_face_gives_empty_arrays():
    assert_empty(*(output[0] for output in random_model(thresholds=(1, 1, 1)).predict(
        [image((3, 60, 60))])))


@pytest.mark.parametrize('shape', [(3, 11, 11), (3, 11, 500), (3, 0, 0), (1, 5, 5)])
def test_an_image_under_12_pixels_gives_no_faces(shape):
    assert_empty(*(output[0] for output in random_model(min_size=12).predict([image(shape)])))


def test_grayscale_is_replicated_and_alpha_dropped():
    model = random_model(thresholds=(0, 0, 0))
    gray = image((1, 40, 40))
    rgba = numpy.concatenate([numpy.repeat(gray, 3, axis=0), image((1, 40, 40), 1)])
    expected = model.predict([numpy.repeat(gray, 3, axis=0)])
    for img in (gray, rgba):
        for actual, reference in zip(model.predict([img]), expected):
            numpy.testing.assert_array_equal(actual[0], reference[0])


@pytest.mark.parametrize('img', [numpy.zeros((2, 20, 20)), numpy.zeros((20, 20)),
                                 numpy.zeros((20, 20, 3)), [[1, 2]]])
def test_other_images_are_refused(img):
    with pytest.raises(ValueError, match=r'image 0 must be an array \(C, H, W\) with C = 3'):
        random_model().predict([img])


def test_settings_are_attributes():
    model = random_model()
    assert (model.min_size, model.thresholds, model.factor) == (20, (0.6, 0.7, 0.7), 0.709)
    model.min_size, model.thresholds, model.factor = 40, [0.5, 0.6, 0.9], 0.5
    assert (model.min_size, model.thresholds, model.factor) == (40, (0.5, 0.6, 0.9), 0.5)


@pytest.mark.parametrize('name, value', [
    ('min_size', 0), ('min_size', float('nan')), ('min_size', '20'),
    ('thresholds', (0.5, 0.5)), ('thresholds', (0.5, 0.5, 1.5)), ('thresholds', 0.5),
    ('factor', 1), ('factor', 0), ('factor', True),
])
def test_bad_settings_are_refused(name, value):
    with pytest.raises(ValueError, match=f'MTCNN: {name} must be'):
        setattr(random_model(), name, value)
    with pytest.raises(ValueError, match=f'MTCNN: {name} must be'):
        MTCNN(pretrained_model=None, **{name: value})


def test_an_npz_file_loads(tmp_path):
    model = random_model()
    save_npz(tmp_path / 'mtcnn.npz', model)
    numpy.random.seed(1)
    loaded = MTCNN(pretrained_model=str(tmp_path / 'mtcnn.npz'))
    for (name, param), (_, other) in zip(model.namedparams(), loaded.namedparams()):
        numpy.testing.assert_array_equal(param.array, other.array, err_msg=name)


def test_predict_side_by_side_equals_predict_on_one_thread(monkeypatch):
    # The pyramid's bands, the crops' batches and the table's rows run on the engine's
    # workers; with one worker they run in turn, with the same results (up to rounding:
    # the crops' batches differ in size).
    import framework.engine
    from vision.models.detection.mtcnn import image_pyramid, stages
    monkeypatch.setattr(image_pyramid, '_BAND_PIXELS', 1 << 10)
    monkeypatch.setattr(stages, '_CROP_BATCH', 16)
    model = random_model(thresholds=(0.3, 0.3, 0.3))
    imgs = [image((3, 90, 120), 4)]
    results = {}
    for workers in (1, 3):
        engine = framework.engine.ThreadedEngine(num_cpu_workers=workers)
        monkeypatch.setattr(framework.engine, '_engine', engine)
        try:
            results[workers] = model.predict(imgs)
        finally:
            engine.shutdown()
    assert len(results[1][0][0]) > 16
    for one, several in zip(results[1], results[3]):
        assert one[0].shape == several[0].shape and one[0].dtype == several[0].dtype
        numpy.testing.assert_allclose(one[0], several[0], rtol=1e-5, atol=1e-4)


@pytest.mark.slow
def test_a_20_megapixel_photo_keeps_memory_bounded():
    # Three times the image's float32 bytes: the summed-area table takes two (float64), the
    # bands of the pyramid's levels the rest.
    img = numpy.full((3, 4000, 5000), 128, dtype=numpy.float32)
    model = random_model(min_size=60, thresholds=(1, 1, 1))
    tracemalloc.start()
    try:
        result = model.predict([img])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert_empty(*(output[0] for output in result))
    assert peak < 3 * img.nbytes, f'peak {peak / 2 ** 20:.0f} MiB'


def test_hybridized_nets_predict_as_the_eager_ones():
    model = random_model(thresholds=(0, 0, 0))
    imgs = [image((3, 36, 40))]
    eager = model.predict(imgs)
    model.hybridize()
    assert all(net._static_graph is not None for net in (model.pnet, model.rnet, model.onet))
    for actual, expected in zip(model.predict(imgs), eager):
        numpy.testing.assert_allclose(actual[0], expected[0], rtol=1e-4, atol=1e-4)


def test_a_hybridized_pnet_keeps_the_graphs_of_a_photos_pyramid(monkeypatch):
    # Predicting the same size again traces nothing: every band of every level keeps its
    # graph (a 1920x1080 photo has about 15).
    from framework.graph.compile import CompiledFunction
    from vision.models.detection.mtcnn import image_pyramid
    monkeypatch.setattr(image_pyramid, '_BAND_PIXELS', 1 << 11)
    model = random_model(thresholds=(1, 1, 1))
    model.hybridize()
    img = image((3, 200, 150))
    model.predict([img])
    assert len(model.pnet._static_graph._signatures) > 8
    traces = []
    trace = CompiledFunction._trace
    monkeypatch.setattr(CompiledFunction, '_trace',
                        lambda self, arrays: traces.append(1) or trace(self, arrays))
    model.predict([img])
    assert traces == []
