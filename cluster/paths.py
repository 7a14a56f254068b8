"""PATH arguments to the list of trace files, in the order `tracewise summarize PATH...` reads them.

Like cli/trace_paths.cc: a folder stands for its regular .json / .json.gz files sorted by name (byte
order, as std::sort on the path strings); any other path is passed as it is (the CLI says if it cannot
read it). A glob the shell did not expand (quoted, so that the workers' view of the shared file system
is the one used) expands in sorted order, as the shell would, each match then as above.

Runs on a worker (shipped by value like tasks.py), so it sees the file system the tasks will read.
"""
import glob
import os


class PathError(ValueError):
    pass


def _folder(path):
    try:
        entries = list(os.scandir(path))
    except OSError as e:
        raise PathError(f"cannot read the folder {path}: {e.strerror}") from None
    found = [e.path for e in entries
             if (e.name.endswith(".json") or e.name.endswith(".json.gz")) and e.is_file()]
    if not found:
        raise PathError(f"the folder {path} holds no .json or .json.gz file")
    return sorted(found, key=os.fsencode)


def _matches(arg):
    if os.path.lexists(arg) or not glob.has_magic(arg):
        return [arg]
    found = sorted(glob.glob(arg), key=os.fsencode)
    if not found:
        raise PathError(f"no file matches {arg}")
    return found


def expand(args):
    """[(file, size in bytes or 0 when it cannot be read)], or a PathError's message as a str."""
    try:
        files = []
        for arg in args:
            for path in _matches(arg):
                files.extend(_folder(path) if os.path.isdir(path) else [path])
    except PathError as e:
        return str(e)
    out = []
    for f in files:
        try:
            out.append((f, os.path.getsize(f)))
        except OSError:
            out.append((f, 0))  # summarize --digest reports it with the CLI's own message
    return out
