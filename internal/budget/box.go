package budget

// Box carries a buffer in a Pool: a pointer, so that putting a buffer
// there allocates nothing once its user holds the Box that Get gave. Its
// buffer is the pool's while the box is in it; between Get and Put its
// user holds the buffer and the box holds none.
type Box struct{ b []byte }

// take hands out the box's buffer, leaving it none.
func (box *Box) take() []byte {
	b := box.b
	box.b = nil
	return b
}
