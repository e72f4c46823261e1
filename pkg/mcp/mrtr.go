package mcp

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolctl/toolctl/pkg/run"
)

// From 2026-07-28 on a server does not send requests to its client while
// it answers one; it answers with the input it needs (inputRequests) and
// the client calls again with the answers (inputResponses): multi
// round-trip requests, SEP-2322. A tool's call is run again from the
// start, and each of its requests to the client, in order, gets the
// answer given for it before. The answers of earlier rounds travel in
// requestState, which the client echoes back: signed with a key of this
// server's, and bound to the tool and its arguments, since "unauthenticated
// servers must encrypt, sign and verify this value" (go-sdk
// CallToolResult.RequestState).

// errInputRequired is what a tool's request gets when its answer is not
// known yet: the call is stopped and answered with the input it needs.
var errInputRequired = errors.New("the client's answer is not known yet; the call stops and asks for it (multi round-trip request)")

// maxRequestState bounds the answers carried from round to round.
const maxRequestState = 8 << 20

// stateTTL is how long a requestState is taken after it is issued: long
// enough for a person to answer a form, short enough that a state that
// leaked (a log, a proxy) cannot be replayed for ever against this server.
var stateTTL = time.Hour

// stateNow is the clock of stateTTL (the tests move it).
var stateNow = time.Now

// roundTrip is the Asker of a call on a multi round-trip session.
type roundTrip struct {
	answers map[string]json.RawMessage // by request key
	cancel  context.CancelFunc         // stops the call when input is needed

	mu     sync.Mutex
	n      int
	needed sdk.InputRequestMap
	err    error // a request that cannot be made an input request
}

func (m *roundTrip) Ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := askIDPrefix + strconv.Itoa(m.n)
	m.n++
	if a, ok := m.answers[key]; ok {
		return a, nil
	}
	ir, err := inputRequest(method, params)
	if err != nil {
		return nil, err
	}
	if m.needed == nil {
		m.needed = sdk.InputRequestMap{}
	}
	m.needed[key] = ir
	m.cancel()
	return nil, errInputRequired
}

// newRoundTrip reads the answers of the earlier rounds of a call of name
// with arguments: those in state (verified) and those in responses.
func (s *Server) newRoundTrip(name string, arguments json.RawMessage, state string, responses sdk.InputResponseMap, cancel context.CancelFunc) (*roundTrip, error) {
	m := &roundTrip{answers: map[string]json.RawMessage{}, cancel: cancel}
	if state != "" {
		if err := s.openState(name, arguments, state, m.answers); err != nil {
			return nil, err
		}
	}
	for k, v := range responses {
		if !strings.HasPrefix(k, askIDPrefix) {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("inputResponses[%q]: %v", k, err)
		}
		m.answers[k] = raw
	}
	return m, nil
}

// result is the input-required result when the call needs input, nil
// when it ran to its end.
func (s *Server) roundTripResult(m *roundTrip, name string, arguments json.RawMessage) (*sdk.CallToolResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.needed == nil {
		return nil, nil
	}
	state, err := s.sealState(name, arguments, m.answers)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{InputRequests: m.needed, RequestState: state}, nil
}

// stateKey signs request states; one per server process.
func (s *Server) stateKey() []byte {
	s.stateKeyOnce.Do(func() {
		s.stateKeyBytes = make([]byte, 32)
		_, _ = rand.Read(s.stateKeyBytes)
	})
	return s.stateKeyBytes
}

// callDigest binds a state to one tool and its arguments: their value,
// not their text, since a client may encode the arguments of its next
// round anew (its keys in another order, other spacing).
func callDigest(name string, arguments json.RawMessage) string {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(canonicalJSON(arguments))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

type requestState struct {
	Call    string                     `json:"call"`
	Answers map[string]json.RawMessage `json:"answers"`
	Expires int64                      `json:"expires"` // Unix seconds
}

func (s *Server) sealState(name string, arguments json.RawMessage, answers map[string]json.RawMessage) (string, error) {
	if len(answers) == 0 {
		return "", nil
	}
	payload, err := json.Marshal(requestState{Call: callDigest(name, arguments), Answers: answers, Expires: stateNow().Add(stateTTL).Unix()})
	if err != nil {
		return "", err
	}
	if len(payload) > maxRequestState {
		return "", fmt.Errorf("the answers of the earlier rounds of this call are %s, more than the %s a call may carry", run.ByteSize(len(payload)), run.ByteSize(maxRequestState))
	}
	mac := hmac.New(sha256.New, s.stateKey())
	mac.Write(payload)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

func (s *Server) openState(name string, arguments json.RawMessage, state string, into map[string]json.RawMessage) error {
	bad := errors.New("requestState is not one this server issued for this call (the server restarted, or the state was changed); call the tool again without it")
	if len(state) > maxRequestState*2 {
		return bad
	}
	p64, m64, ok := strings.Cut(state, ".")
	if !ok {
		return bad
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p64)
	sum, err2 := base64.RawURLEncoding.DecodeString(m64)
	if err1 != nil || err2 != nil {
		return bad
	}
	mac := hmac.New(sha256.New, s.stateKey())
	mac.Write(payload)
	if !hmac.Equal(sum, mac.Sum(nil)) {
		return bad
	}
	var st requestState
	if json.Unmarshal(payload, &st) != nil || st.Call != callDigest(name, arguments) {
		return bad
	}
	if stateNow().Unix() > st.Expires {
		return fmt.Errorf("requestState expired: it was issued more than %s ago; call the tool again without it", stateTTL)
	}
	for k, v := range st.Answers {
		into[k] = v
	}
	return nil
}

// canonicalJSON is data with its object keys sorted and no spacing
// (numbers as written); data itself when it is not JSON.
func canonicalJSON(data json.RawMessage) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return data
	}
	out, err := json.Marshal(v)
	if err != nil {
		return data
	}
	return out
}
