package lsm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"strings"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// The manifest is the whole engine state, rewritten in full at each change
// as a new file MANIFEST-<n>; CURRENT names the live one and is replaced
// atomically (CURRENT.tmp, sync, rename, sync dir):
//
//	+----------+-----------+------------+----------------------------+
//	| "WSQLMAN1" | crc32c  | length     | JSON body (manifestData)   |
//	|  8 bytes   | 4 bytes | 4 bytes    | length bytes               |
//	+----------+-----------+------------+----------------------------+
//
// The checksum (Castagnoli) covers the body. The state is small (files are
// at least a memtable each), so a full rewrite costs little and keeps
// recovery trivial.
const manifestMagic = "WSQLMAN1"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

type manifestData struct {
	NextFileNum  uint64
	NextRegionID uint64
	NextTableID  uint64
	LastSeq      uint64 // >= every sequence number in a file
	WALMin       uint64 // replay starts at this segment
	Tables       []manifestTable
}

type manifestTable struct {
	ID       uint64
	Name     string
	Families []kv.Family
	Regions  []manifestRegion
}

type manifestRegion struct {
	ID         uint64
	Start, End []byte
	FlushedSeq uint64
	Rows       int64
	Rewrite    bool
	Files      [][]manifestFile // per family, in sorted family order
}

type manifestFile struct {
	Num               uint64
	Smallest, Largest []byte
	Size, Entries     int64
	InstallSeq        uint64 `json:",omitempty"` // fileMeta.installSeq
}

func encodeManifest(m *manifestData) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+16)
	out = append(out, manifestMagic...)
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(body, crcTable))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(body)))
	return append(out, body...), nil
}

func decodeManifest(name string, b []byte) (*manifestData, error) {
	bad := func(why string) error {
		return fmt.Errorf("lsm: manifest %s: %s: %w", name, why, errCorrupt)
	}
	if len(b) < 16 || string(b[:8]) != manifestMagic {
		return nil, bad("bad header")
	}
	crc, n := binary.LittleEndian.Uint32(b[8:]), binary.LittleEndian.Uint32(b[12:])
	body := b[16:]
	if uint64(n) != uint64(len(body)) {
		return nil, bad("bad length")
	}
	if crc32.Checksum(body, crcTable) != crc {
		return nil, bad("checksum mismatch")
	}
	var m manifestData
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, bad(err.Error())
	}
	return &m, nil
}

func readFile(fs vfs.FS, name string) ([]byte, error) {
	f, err := fs.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return nil, err
	}
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}

func writeSynced(fs vfs.FS, name string, data []byte) error {
	f, err := fs.Create(name)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func manifestName(num uint64) string { return fmt.Sprintf("MANIFEST-%06d", num) }

// writeManifest writes m as a new manifest file and points CURRENT at it.
func writeManifest(fs vfs.FS, dir string, num uint64, m *manifestData) error {
	data, err := encodeManifest(m)
	if err != nil {
		return err
	}
	name := manifestName(num)
	if err := writeSynced(fs, path.Join(dir, name), data); err != nil {
		return fmt.Errorf("lsm: write %s: %w", name, err)
	}
	tmp := path.Join(dir, "CURRENT.tmp")
	cur := fmt.Sprintf("%s %08x\n", name, crc32.Checksum([]byte(name), crcTable))
	if err := writeSynced(fs, tmp, []byte(cur)); err != nil {
		return fmt.Errorf("lsm: write CURRENT: %w", err)
	}
	if err := fs.Rename(tmp, path.Join(dir, "CURRENT")); err != nil {
		return fmt.Errorf("lsm: install CURRENT: %w", err)
	}
	if err := fs.SyncDir(dir); err != nil {
		return fmt.Errorf("lsm: sync %s: %w", dir, err)
	}
	return nil
}

// readCurrent returns the manifest CURRENT names, or nil if there is no
// CURRENT (a new store).
func readCurrent(fs vfs.FS, dir string) (*manifestData, string, error) {
	names, err := fs.List(dir)
	if err != nil {
		return nil, "", err
	}
	found := false
	for _, n := range names {
		found = found || n == "CURRENT"
	}
	if !found {
		return nil, "", nil
	}
	curPath := path.Join(dir, "CURRENT")
	cur, err := readFile(fs, curPath)
	if err != nil {
		return nil, "", fmt.Errorf("lsm: read %s: %w", curPath, err)
	}
	name, sum, _ := strings.Cut(strings.TrimSuffix(string(cur), "\n"), " ")
	if want := fmt.Sprintf("%08x", crc32.Checksum([]byte(name), crcTable)); sum != want ||
		!strings.HasPrefix(name, "MANIFEST-") || strings.ContainsAny(name, "/\n") {
		return nil, "", fmt.Errorf("lsm: %s: bad content %q: %w", curPath, cur, errCorrupt)
	}
	b, err := readFile(fs, path.Join(dir, name))
	if err != nil {
		return nil, "", fmt.Errorf("lsm: read %s named by %s: %w", name, curPath, err)
	}
	m, err := decodeManifest(path.Join(dir, name), b)
	return m, name, err
}
