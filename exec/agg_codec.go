package exec

import (
	"encoding/binary"
	"math"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// A spilled group is one row of the aggregate's partition files: the
// group key values, then one bytea holding every aggregate's partial
// state in call order:
//
//	state  = varint(count) varint(sumI) f64(sumF) f64(sxx) byte(b)
//	         datum(val) datum(sq) byte(hasDir) datum(direct)
//	         uvarint(len(list)) tuple*
//	tuple  = datum*                     one per aggFn.tuple column
//	datum  = 0x00 | 0x01 uvarint(len) keyenc.AppendValue
//
// val is of aggFn.valType, sq numeric, direct the fraction's type. The
// DISTINCT set is not written: decoding rebuilds it from the tuples.

func (o *aggOp) encodeStates(buf []byte, states []aggState) []byte {
	for i := range states {
		f, st := &o.fns[i], &states[i]
		buf = binary.AppendVarint(buf, st.count)
		buf = binary.AppendVarint(buf, st.sumI)
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(st.sumF))
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(st.sxx))
		buf = append(buf, boolByte(st.b))
		buf = appendDatum(buf, st.val, f.valType)
		buf = appendDatum(buf, st.sq, types.TNumeric)
		buf = append(buf, boolByte(st.hasDir))
		var dt types.T
		if f.call.Extra != nil {
			dt = f.call.Extra.Type()
		}
		buf = appendDatum(buf, st.direct, dt)
		buf = binary.AppendUvarint(buf, uint64(len(st.list)))
		for _, t := range st.list {
			for j, d := range t {
				buf = appendDatum(buf, d, f.tuple[j])
			}
		}
	}
	return buf
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func appendDatum(buf []byte, d types.Datum, t types.T) []byte {
	if d.IsNull() {
		return append(buf, 0)
	}
	v := keyenc.AppendValue(nil, d, t)
	buf = binary.AppendUvarint(append(buf, 1), uint64(len(v)))
	return append(buf, v...)
}

// stateDecoder reads the encoding above.
type stateDecoder struct {
	b   []byte
	err error
}

func (d *stateDecoder) fail() {
	if d.err == nil {
		d.err = pgerror.New(pgerror.CodeDataCorrupted, "corrupt temporary spill file: bad aggregate state")
	}
}

func (d *stateDecoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *stateDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *stateDecoder) f64() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *stateDecoder) byte1() byte {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *stateDecoder) datum(t types.T) types.Datum {
	if d.byte1() == 0 || d.err != nil {
		return types.Null
	}
	n := d.uvarint()
	if d.err != nil || uint64(len(d.b)) < n {
		d.fail()
		return types.Null
	}
	v, err := keyenc.DecodeValue(d.b[:n], t)
	if err != nil {
		if d.err == nil {
			d.err = err
		}
		return types.Null
	}
	d.b = d.b[n:]
	return v
}

func (o *aggOp) decodeStates(b []byte, states []aggState) error {
	d := &stateDecoder{b: b}
	for i := range states {
		f, st := &o.fns[i], &states[i]
		*st = aggState{}
		st.count = d.varint()
		st.sumI = d.varint()
		st.sumF = d.f64()
		st.sxx = d.f64()
		st.b = d.byte1() == 1
		st.val = d.datum(f.valType)
		st.sq = d.datum(types.TNumeric)
		st.hasDir = d.byte1() == 1
		if f.call.Extra != nil {
			st.direct = d.datum(f.call.Extra.Type())
		} else {
			d.datum(types.T{})
		}
		n := d.uvarint()
		if d.err != nil {
			return d.err
		}
		if n > uint64(len(d.b)) {
			d.fail()
			return d.err
		}
		if n > 0 {
			st.list = make([][]types.Datum, n)
		}
		for j := range st.list {
			t := make([]types.Datum, len(f.tuple))
			for k := range t {
				t[k] = d.datum(f.tuple[k])
			}
			st.list[j] = t
			if f.call.Distinct {
				if st.seen == nil {
					st.seen = map[string]struct{}{}
				}
				st.seen[string(rowKey(nil, t[:f.keyOff]))] = struct{}{}
			}
		}
		if d.err != nil {
			return d.err
		}
	}
	if len(d.b) != 0 {
		d.fail()
	}
	return d.err
}
