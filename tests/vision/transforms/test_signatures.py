"""The public names and signatures are ChainerCV 0.13's (``chainercv.transforms``, and the SSD
augmentations of ``chainercv.links.model.ssd``), plus the keyword-only ``rng`` of the random
transforms (and ``expand`` of ``rotate_bbox``)."""

import inspect

import pytest
from PIL import Image

import vision.transforms as T

_ = inspect.Parameter.empty
CHAINERCV_0_13 = {
    'center_crop': [('img', _), ('size', _), ('return_param', False), ('copy', False)],
    'flip': [('img', _), ('y_flip', False), ('x_flip', False), ('copy', False)],
    'pca_lighting': [('img', _), ('sigma', _), ('eigen_value', None), ('eigen_vector', None)],
    'random_crop': [('img', _), ('size', _), ('return_param', False), ('copy', False)],
    'random_expand': [('img', _), ('max_ratio', 4), ('fill', 0), ('return_param', False)],
    'random_flip': [('img', _), ('y_random', False), ('x_random', False),
                    ('return_param', False), ('copy', False)],
    'random_rotate': [('img', _), ('return_param', False)],
    'random_sized_crop': [('img', _), ('scale_ratio_range', (0.08, 1)),
                          ('aspect_ratio_range', (3 / 4, 4 / 3)), ('return_param', False),
                          ('copy', False)],
    'resize': [('img', _), ('size', _), ('interpolation', Image.BILINEAR)],
    'resize_contain': [('img', _), ('size', _), ('fill', 0), ('interpolation', Image.BILINEAR),
                       ('return_param', False)],
    'rotate': [('img', _), ('angle', _), ('expand', True), ('fill', 0),
               ('interpolation', Image.BILINEAR)],
    'scale': [('img', _), ('size', _), ('fit_short', True), ('interpolation', Image.BILINEAR)],
    'ten_crop': [('img', _), ('size', _)],
    'crop_bbox': [('bbox', _), ('y_slice', None), ('x_slice', None),
                  ('allow_outside_center', True), ('return_param', False)],
    'flip_bbox': [('bbox', _), ('size', _), ('y_flip', False), ('x_flip', False)],
    'resize_bbox': [('bbox', _), ('in_size', _), ('out_size', _)],
    'rotate_bbox': [('bbox', _), ('angle', _), ('size', _)],
    'translate_bbox': [('bbox', _), ('y_offset', 0), ('x_offset', 0)],
    'flip_point': [('point', _), ('size', _), ('y_flip', False), ('x_flip', False)],
    'resize_point': [('point', _), ('in_size', _), ('out_size', _)],
    'translate_point': [('point', _), ('y_offset', 0), ('x_offset', 0)],
    'random_crop_with_bbox_constraints': [
        ('img', _), ('bbox', _), ('min_scale', 0.3), ('max_scale', 1), ('max_aspect_ratio', 2),
        ('constraints', None), ('max_trial', 50), ('return_param', False)],
    'random_distort': [('img', _), ('brightness_delta', 32), ('contrast_low', 0.5),
                       ('contrast_high', 1.5), ('saturation_low', 0.5), ('saturation_high', 1.5),
                       ('hue_delta', 18)],
    'resize_with_random_interpolation': [('img', _), ('size', _), ('return_param', False)],
}
KEYWORD_ONLY = {'pca_lighting': {'rng': None}, 'random_crop': {'rng': None},
                'random_expand': {'rng': None}, 'random_flip': {'rng': None},
                'random_rotate': {'rng': None}, 'random_sized_crop': {'rng': None},
                'rotate_bbox': {'expand': True}, 'random_crop_with_bbox_constraints': {'rng': None},
                'random_distort': {'rng': None}, 'resize_with_random_interpolation': {'rng': None}}


def test_public_names():
    assert sorted(T.__all__) == sorted(CHAINERCV_0_13)


@pytest.mark.parametrize('name', sorted(CHAINERCV_0_13))
def test_signature(name):
    params = inspect.signature(getattr(T, name)).parameters.values()
    positional = [(p.name, p.default) for p in params
                  if p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD]
    assert positional == CHAINERCV_0_13[name]
    keyword_only = {p.name: p.default for p in params if p.kind == inspect.Parameter.KEYWORD_ONLY}
    assert keyword_only == KEYWORD_ONLY.get(name, {})


@pytest.mark.parametrize('name', sorted(CHAINERCV_0_13))
def test_module_paths(name):
    group = 'bbox' if name.endswith('_bbox') else 'point' if name.endswith('_point') else 'image'
    module = __import__(f'vision.transforms.{group}.{name}', fromlist=[name])
    assert getattr(module, name) is getattr(T, name)
