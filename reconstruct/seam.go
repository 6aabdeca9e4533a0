package reconstruct

// This file is the seam between a Stream and its Reducer: the unexported
// methods a Stream calls.

// extended reports whether the last event took the delta route.
func (r *Reducer) extended() bool { return r.delta != nil }

// muteText makes r build no UpdateText, for a caller that reads none.
func (r *Reducer) muteText() { r.mute = true }

// taskID returns the run's task id, without the LastEventID update that
// Result makes (a copy of the id, when it changed).
func (r *Reducer) taskID() string { return r.res.TaskID }

// closed reports whether Finish was called.
func (r *Reducer) closed() bool { return r.finished }

// setID makes id, the id of the frame of the event being applied, the
// last event id: a copy, in the Reducer's buffer, so that it outlives the
// frame and allocates nothing once the buffer fits an id.
func (r *Reducer) setID(id []byte) { r.lastID = append(r.lastID[:0], id...) }
