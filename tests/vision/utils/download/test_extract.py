"""extractall: formats, merging, refusal of crafted archives, all-or-nothing extraction."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile

import pytest

from vision.utils.download import UnsafeArchiveError, extractall


def make_tar(path, members, mode='w'):
    """Writes a tar; ``members`` holds ``(name, bytes)`` files, ``(name, None)`` directories
    and ``(name, ('sym' | 'hard' | 'chr', target))`` links and devices."""
    kinds = {'sym': tarfile.SYMTYPE, 'hard': tarfile.LNKTYPE, 'chr': tarfile.CHRTYPE}
    with tarfile.open(path, mode) as tar:
        for name, content in members:
            info = tarfile.TarInfo(name)
            if content is None:
                info.type = tarfile.DIRTYPE
                info.mode = 0o755
                tar.addfile(info)
            elif isinstance(content, tuple):
                info.type = kinds[content[0]]
                info.linkname = content[1]
                tar.addfile(info)
            else:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
    return str(path)


def make_zip(path, members):
    with zipfile.ZipFile(path, 'w') as z:
        for name, content in members:
            z.writestr(zipfile.ZipInfo(name), content)
    return str(path)


def tree(root):
    """The files under ``root`` as ``{relative path: bytes}``, links as ``'-> target'``."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            path = os.path.join(dirpath, name)
            key = os.path.relpath(path, root)
            if os.path.islink(path):
                found[key] = '-> ' + os.readlink(path)
            else:
                with open(path, 'rb') as f:
                    found[key] = f.read()
    return found


@pytest.fixture
def outer(tmp_path):
    """A directory holding only the destination, to see that nothing escapes into it."""
    path = tmp_path / 'outer'
    path.mkdir()
    return path


@pytest.mark.parametrize(('name', 'mode', 'ext'), [
    ('a.tar', 'w', '.tar'),
    ('a.tar.gz', 'w:gz', '.gz'),
    ('a.tgz', 'w:gz', '.tgz'),
    ('a.tar.gz', 'w:gz', '.tar.gz'),
    ('a.tar.bz2', 'w:bz2', None),
    ('a.tar.xz', 'w:xz', '.xz'),
])
def test_tar_formats(tmp_path, name, mode, ext):
    archive = make_tar(tmp_path / name, [
        ('VOCdevkit', None), ('VOCdevkit/VOC2012', None),
        ('VOCdevkit/VOC2012/a.txt', b'a'), ('VOCdevkit/VOC2012/sub/b.txt', b'b'),
        ('VOCdevkit/VOC2012/link.txt', ('sym', 'a.txt')),
        ('VOCdevkit/VOC2012/hard.txt', ('hard', 'VOCdevkit/VOC2012/a.txt')),
    ], mode)
    destination = tmp_path / 'dest'
    extractall(archive, destination, ext)
    assert tree(destination) == {
        '.extract.lock': b'',
        'VOCdevkit/VOC2012/a.txt': b'a', 'VOCdevkit/VOC2012/sub/b.txt': b'b',
        'VOCdevkit/VOC2012/link.txt': '-> a.txt', 'VOCdevkit/VOC2012/hard.txt': b'a'}


@pytest.mark.parametrize('ext', ['.zip', None])
def test_zip(tmp_path, ext):
    archive = make_zip(tmp_path / 'a.zip', [('d/', b''), ('d/a.txt', b'a'), ('b.txt', b'b')])
    extractall(archive, tmp_path / 'dest', ext)
    assert tree(tmp_path / 'dest') == {'.extract.lock': b'', 'd/a.txt': b'a', 'b.txt': b'b'}


def test_merges_into_existing_directories(tmp_path):
    destination = tmp_path / 'dest'
    (destination / 'VOCdevkit' / 'VOC2012').mkdir(parents=True)
    (destination / 'VOCdevkit' / 'VOC2012' / 'kept.txt').write_bytes(b'2012')
    (destination / 'VOCdevkit' / 'old.txt').write_bytes(b'old')
    archive = make_tar(tmp_path / 'a.tar', [('VOCdevkit/VOC2007/a.txt', b'2007'),
                                            ('VOCdevkit/old.txt', b'new')])
    extractall(archive, destination, '.tar')
    assert tree(destination) == {
        '.extract.lock': b'', 'VOCdevkit/VOC2012/kept.txt': b'2012',
        'VOCdevkit/VOC2007/a.txt': b'2007', 'VOCdevkit/old.txt': b'new'}


def test_follows_a_symlinked_directory_of_the_destination(tmp_path):
    elsewhere = tmp_path / 'big_disk' / 'VOCdevkit'
    elsewhere.mkdir(parents=True)
    destination = tmp_path / 'dest'
    destination.mkdir()
    (destination / 'VOCdevkit').symlink_to(elsewhere)
    archive = make_tar(tmp_path / 'a.tar', [('VOCdevkit/VOC2007/a.txt', b'a')])
    extractall(archive, destination, '.tar')
    assert (elsewhere / 'VOC2007' / 'a.txt').read_bytes() == b'a'


def assert_nothing_extracted(outer):
    assert os.listdir(outer) == ['dest']
    assert os.listdir(outer / 'dest') == ['.extract.lock']


@pytest.mark.parametrize(('members', 'bad', 'problem'), [
    ([('../evil.txt', b'x')], '../evil.txt', 'would be written to {outer}/evil.txt'),
    ([('/abs/evil.txt', b'x')], '/abs/evil.txt', 'would be written to /abs/evil.txt'),
    ([('ok/../../evil.txt', b'x')], 'ok/../../evil.txt', 'would be written to'),
    ([('out', ('sym', '../')), ('out/evil.txt', b'x')], 'out',
     "is a symbolic link to '../', which resolves to {outer}"),
    ([('etc', ('sym', '/etc'))], 'etc', "is a symbolic link to '/etc'"),
    ([('a', ('sym', '.')), ('b', ('sym', 'a/..')), ('b/evil.txt', b'x')], 'b',
     "is a symbolic link to 'a/..', which resolves to {outer}"),
    ([('hard', ('hard', '../evil.txt'))], 'hard', "is a hard link to '../evil.txt'"),
    ([('tty', ('chr', ''))], 'tty', 'is a device or FIFO'),
])
def test_refuses_tar_members_outside(tmp_path, outer, members, bad, problem):
    archive = make_tar(tmp_path / 'a.tar', [('first.txt', b'ok')] + members)
    with pytest.raises(UnsafeArchiveError) as info:
        extractall(archive, outer / 'dest', '.tar')
    assert info.value.member == bad
    message = str(info.value)
    assert f'member {bad!r} {problem.format(outer=outer)}' in message
    assert 'nothing was extracted' in message
    assert_nothing_extracted(outer)


@pytest.mark.parametrize('bad', ['../evil.txt', '/abs/evil.txt', 'd/../../evil.txt'])
def test_refuses_zip_members_outside(tmp_path, outer, bad):
    archive = make_zip(tmp_path / 'a.zip', [('first.txt', b'ok'), (bad, b'x')])
    with pytest.raises(UnsafeArchiveError, match='would be written to') as info:
        extractall(archive, outer / 'dest', '.zip')
    assert info.value.member == bad
    assert_nothing_extracted(outer)


def test_truncated_archive_extracts_nothing(tmp_path, outer):
    archive = make_tar(tmp_path / 'a.tar.gz', [(f'd/{i}.bin', os.urandom(20000))
                                               for i in range(10)], 'w:gz')
    with open(archive, 'rb') as f:
        data = f.read()
    with open(archive, 'wb') as f:
        f.write(data[:len(data) // 2])
    with pytest.raises((tarfile.TarError, EOFError)):
        extractall(archive, outer / 'dest', '.gz')
    assert_nothing_extracted(outer)


def test_leftovers_of_a_killed_extraction_are_removed(tmp_path):
    destination = tmp_path / 'dest'
    (destination / '.extracting-old' / 'VOCdevkit').mkdir(parents=True)
    extractall(make_tar(tmp_path / 'a.tar', [('a.txt', b'a')]), destination, '.tar')
    assert sorted(os.listdir(destination)) == ['.extract.lock', 'a.txt']


def test_bad_ext(tmp_path):
    with pytest.raises(ValueError, match=r"extractall: ext must be one of .* but got '\.rar'"):
        extractall(tmp_path / 'a.rar', tmp_path / 'dest', '.rar')
    with pytest.raises(ValueError, match='cannot tell the archive type'):
        extractall(tmp_path / 'a.rar', tmp_path / 'dest')
