"""What the CUB-200-2011 datasets share: the download, the tables, boxes and probability maps."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import AnnotationError
from vision.datasets._prepare import prepare_dataset
from vision.datasets._table import read_table
from vision.utils import read_image

url = 'https://data.caltech.edu/records/65de6-vp158/files/CUB_200_2011.tgz'
prob_map_url = 'https://data.caltech.edu/records/w9d68-gec53/files/segmentations.tgz'
# The md5 CaltechDATA publishes for CUB_200_2011.tgz.
_MD5 = '97eceeb196236b17998738112f37df78'


def get_cub() -> str:
    """Downloads and extracts CUB-200-2011 (once) under ``$VISION_HOME/datasets/cub``.

    Returns:
        str: The ``CUB_200_2011`` directory.

    """
    root = prepare_dataset('get_cub', 'cub', url, 'CUB_200_2011', ('md5', _MD5))
    return os.path.join(root, 'CUB_200_2011')


def get_cub_prob_map() -> str:
    """Downloads and extracts the birds' segmentations (once) under ``$VISION_HOME/datasets/cub``.

    Returns:
        str: The ``segmentations`` directory.

    """
    root = prepare_dataset('get_cub_prob_map', 'cub', prob_map_url, 'segmentations')
    return os.path.join(root, 'segmentations')


def rows_by_image(fname: str, path: str, ids: Sequence[int], image_ids: numpy.ndarray,
                  per_image: int = 1) -> numpy.ndarray:
    """The row numbers of a table keyed by image id, in the order of ``images.txt``.

    Args:
        fname (str): The public name to put in error messages.
        path (str): The table, for error messages.
        ids (sequence of int): The image id of each row.
        image_ids (~numpy.ndarray): The ids of ``images.txt``, in its order.
        per_image (int): How many rows each image must have.

    Returns:
        ~numpy.ndarray: An int array of shape ``(len(image_ids), per_image)``: the rows of each
        image, in the order they appear in the table.

    Raises:
        AnnotationError: An image does not have exactly ``per_image`` rows, or a row names an
            image that ``images.txt`` does not list.

    """
    ids = numpy.asarray(ids, dtype=numpy.int64)
    order = numpy.argsort(ids, kind='stable')
    sorted_image_ids = numpy.sort(image_ids)
    expected = numpy.repeat(sorted_image_ids, per_image)
    if len(ids) != len(expected) or not numpy.array_equal(ids[order], expected):
        raise AnnotationError(fname, path, 'field image_id', f'must give {per_image} row(s) to '
                              f'each of the {len(image_ids)} images of images.txt and none to '
                              f'another image, but the ids do not match')
    rows = order.reshape(-1, per_image)
    return rows[numpy.searchsorted(sorted_image_ids, image_ids)]


class CUBDatasetBase(GetterDataset):
    """The base of the CUB-200-2011 datasets: images, bounding boxes and probability maps.

    It reads ``images.txt`` and ``bounding_boxes.txt`` and registers the getters ``bbox`` and
    ``prob_map``; subclasses add their own and choose the keys with :meth:`_set_keys`.

    Args:
        data_dir (str): The ``CUB_200_2011`` directory, or ``'auto'`` to download it.
        prob_map_dir (str): The ``segmentations`` directory, or ``'auto'`` to download it.
        return_prob_map (bool): Whether probability maps are returned; they are downloaded
            only then.

    Attributes:
        paths (list of str): The image paths relative to ``data_dir/images``.
        bbs (~numpy.ndarray): The box of each bird, float32 ``(N, 4)``,
            ``(y_min, x_min, y_max, x_max)``.

    """

    def __init__(self, data_dir: str = 'auto', prob_map_dir: str = 'auto',
                 return_prob_map: bool = False) -> None:
        super().__init__()
        fname = type(self).__name__
        if data_dir == 'auto':
            data_dir = get_cub()
        if prob_map_dir == 'auto' and return_prob_map:
            prob_map_dir = get_cub_prob_map()
        self.data_dir = data_dir
        self.prob_map_dir = prob_map_dir

        images_path = os.path.join(data_dir, 'images.txt')
        ids, self.paths = read_table(fname, images_path, [('image_id', int), ('path', str)])
        self._image_ids = numpy.array(ids, dtype=numpy.int64)
        unique, counts = numpy.unique(self._image_ids, return_counts=True)
        if (counts > 1).any():
            raise AnnotationError(fname, images_path, 'field image_id', f'must not repeat an '
                                  f'id, but repeats {unique[counts > 1][:5].tolist()}')

        bbox_path = os.path.join(data_dir, 'bounding_boxes.txt')
        columns = read_table(fname, bbox_path, [
            ('image_id', int), ('x', float), ('y', float), ('width', float),
            ('height', float)])
        rows = self._rows(bbox_path, columns[0])
        x, y, width, height = (numpy.asarray(c, dtype=numpy.float32)[rows] for c in columns[1:])
        self.bbs = numpy.stack((y, x, y + height, x + width), axis=1)

        self.add_getter('bbox', self._get_bbox)
        self.add_getter('prob_map', self._get_prob_map)

    def _rows(self, path: str, ids: Sequence[int], per_image: int = 1) -> numpy.ndarray:
        rows = rows_by_image(type(self).__name__, path, ids, self._image_ids, per_image)
        return rows[:, 0] if per_image == 1 else rows

    def _set_keys(self, keys: tuple[str, ...], return_bbox: bool,
                  return_prob_map: bool) -> None:
        """Keeps ``keys``, followed by ``bbox`` and ``prob_map`` if asked for."""
        self.keys = keys + ('bbox',) * return_bbox + ('prob_map',) * return_prob_map

    def _image_path(self, i: int) -> str:
        return os.path.join(self.data_dir, 'images', self.paths[i])

    def __len__(self) -> int:
        return len(self.paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self._image_path(i), color=True)

    def _get_bbox(self, i: int) -> numpy.ndarray:
        return self.bbs[i][None]

    def _get_prob_map(self, i: int) -> numpy.ndarray:
        path = os.path.join(self.prob_map_dir, os.path.splitext(self.paths[i])[0] + '.png')
        prob_map = read_image(path, color=False, alpha='ignore')[0]
        return prob_map / 255


# The 200 classes of classes.txt, without their numbers (ChainerCV's spelling).
cub_label_names = (
    'Black_footed_Albatross', 'Laysan_Albatross', 'Sooty_Albatross', 'Groove_billed_Ani',
    'Crested_Auklet', 'Least_Auklet', 'Parakeet_Auklet', 'Rhinoceros_Auklet', 'Brewer_Blackbird',
    'Red_winged_Blackbird', 'Rusty_Blackbird', 'Yellow_headed_Blackbird', 'Bobolink',
    'Indigo_Bunting', 'Lazuli_Bunting', 'Painted_Bunting', 'Cardinal', 'Spotted_Catbird',
    'Gray_Catbird', 'Yellow_breasted_Chat', 'Eastern_Towhee', 'Chuck_will_Widow',
    'Brandt_Cormorant', 'Red_faced_Cormorant', 'Pelagic_Cormorant', 'Bronzed_Cowbird',
    'Shiny_Cowbird', 'Brown_Creeper', 'American_Crow', 'Fish_Crow', 'Black_billed_Cuckoo',
    'Mangrove_Cuckoo', 'Yellow_billed_Cuckoo', 'Gray_crowned_Rosy_Finch', 'Purple_Finch',
    'Northern_Flicker', 'Acadian_Flycatcher', 'Great_Crested_Flycatcher', 'Least_Flycatcher',
    'Olive_sided_Flycatcher', 'Scissor_tailed_Flycatcher', 'Vermilion_Flycatcher',
    'Yellow_bellied_Flycatcher', 'Frigatebird', 'Northern_Fulmar', 'Gadwall', 'American_Goldfinch',
    'European_Goldfinch', 'Boat_tailed_Grackle', 'Eared_Grebe', 'Horned_Grebe', 'Pied_billed_Grebe',
    'Western_Grebe', 'Blue_Grosbeak', 'Evening_Grosbeak', 'Pine_Grosbeak', 'Rose_breasted_Grosbeak',
    'Pigeon_Guillemot', 'California_Gull', 'Glaucous_winged_Gull', 'Heermann_Gull', 'Herring_Gull',
    'Ivory_Gull', 'Ring_billed_Gull', 'Slaty_backed_Gull', 'Western_Gull', 'Anna_Hummingbird',
    'Ruby_throated_Hummingbird', 'Rufous_Hummingbird', 'Green_Violetear', 'Long_tailed_Jaeger',
    'Pomarine_Jaeger', 'Blue_Jay', 'Florida_Jay', 'Green_Jay', 'Dark_eyed_Junco',
    'Tropical_Kingbird', 'Gray_Kingbird', 'Belted_Kingfisher', 'Green_Kingfisher',
    'Pied_Kingfisher', 'Ringed_Kingfisher', 'White_breasted_Kingfisher', 'Red_legged_Kittiwake',
    'Horned_Lark', 'Pacific_Loon', 'Mallard', 'Western_Meadowlark', 'Hooded_Merganser',
    'Red_breasted_Merganser', 'Mockingbird', 'Nighthawk', 'Clark_Nutcracker',
    'White_breasted_Nuthatch', 'Baltimore_Oriole', 'Hooded_Oriole', 'Orchard_Oriole',
    'Scott_Oriole', 'Ovenbird', 'Brown_Pelican', 'White_Pelican', 'Western_Wood_Pewee', 'Sayornis',
    'American_Pipit', 'Whip_poor_Will', 'Horned_Puffin', 'Common_Raven', 'White_necked_Raven',
    'American_Redstart', 'Geococcyx', 'Loggerhead_Shrike', 'Great_Grey_Shrike', 'Baird_Sparrow',
    'Black_throated_Sparrow', 'Brewer_Sparrow', 'Chipping_Sparrow', 'Clay_colored_Sparrow',
    'House_Sparrow', 'Field_Sparrow', 'Fox_Sparrow', 'Grasshopper_Sparrow', 'Harris_Sparrow',
    'Henslow_Sparrow', 'Le_Conte_Sparrow', 'Lincoln_Sparrow', 'Nelson_Sharp_tailed_Sparrow',
    'Savannah_Sparrow', 'Seaside_Sparrow', 'Song_Sparrow', 'Tree_Sparrow', 'Vesper_Sparrow',
    'White_crowned_Sparrow', 'White_throated_Sparrow', 'Cape_Glossy_Starling', 'Bank_Swallow',
    'Barn_Swallow', 'Cliff_Swallow', 'Tree_Swallow', 'Scarlet_Tanager', 'Summer_Tanager',
    'Artic_Tern', 'Black_Tern', 'Caspian_Tern', 'Common_Tern', 'Elegant_Tern', 'Forsters_Tern',
    'Least_Tern', 'Green_tailed_Towhee', 'Brown_Thrasher', 'Sage_Thrasher', 'Black_capped_Vireo',
    'Blue_headed_Vireo', 'Philadelphia_Vireo', 'Red_eyed_Vireo', 'Warbling_Vireo',
    'White_eyed_Vireo', 'Yellow_throated_Vireo', 'Bay_breasted_Warbler', 'Black_and_white_Warbler',
    'Black_throated_Blue_Warbler', 'Blue_winged_Warbler', 'Canada_Warbler', 'Cape_May_Warbler',
    'Cerulean_Warbler', 'Chestnut_sided_Warbler', 'Golden_winged_Warbler', 'Hooded_Warbler',
    'Kentucky_Warbler', 'Magnolia_Warbler', 'Mourning_Warbler', 'Myrtle_Warbler',
    'Nashville_Warbler', 'Orange_crowned_Warbler', 'Palm_Warbler', 'Pine_Warbler',
    'Prairie_Warbler', 'Prothonotary_Warbler', 'Swainson_Warbler', 'Tennessee_Warbler',
    'Wilson_Warbler', 'Worm_eating_Warbler', 'Yellow_Warbler', 'Northern_Waterthrush',
    'Louisiana_Waterthrush', 'Bohemian_Waxwing', 'Cedar_Waxwing', 'American_Three_toed_Woodpecker',
    'Pileated_Woodpecker', 'Red_bellied_Woodpecker', 'Red_cockaded_Woodpecker',
    'Red_headed_Woodpecker', 'Downy_Woodpecker', 'Bewick_Wren', 'Cactus_Wren', 'Carolina_Wren',
    'House_Wren', 'Marsh_Wren', 'Rock_Wren', 'Winter_Wren', 'Common_Yellowthroat',
)
