package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/toolctl/toolctl/pkg/run"
)

// cannedClient is the MCP client of an example: it answers the tool's
// requests (ctx.sample, ctx.elicit; a live server's sampling and
// elicitation requests) with the example's expect.client answers, in
// order, and counts them.
type cannedClient struct {
	mu      sync.Mutex
	answers *ClientAnswers
	asked   map[string]int
}

func newCannedClient(a *ClientAnswers) *cannedClient {
	return &cannedClient{answers: a, asked: map[string]int{}}
}

// clientFields are the expect.client lists by request method.
var clientFields = run.Capabilities

func (c *cannedClient) list(method string) []json.RawMessage {
	if c.answers == nil {
		return nil
	}
	if method == run.MethodElicit {
		return c.answers.Elicitation
	}
	return c.answers.Sampling
}

func (c *cannedClient) Ask(_ context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	field, ok := clientFields[method]
	if !ok {
		return nil, fmt.Errorf("the example's client does not answer %s", method)
	}
	i := c.asked[method]
	c.asked[method]++
	list := c.list(method)
	if i >= len(list) {
		return nil, fmt.Errorf("the tool sent %s request %d, and the example gives %d answer(s): add the client's answer to the example's expect.client.%s", method, i+1, len(list), field)
	}
	return list[i], nil
}

// unused says which answers the tool did not ask for, "" when it asked
// for them all.
func (c *cannedClient) unused() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, method := range []string{run.MethodSample, run.MethodElicit} {
		if n, given := c.asked[method], len(c.list(method)); n < given {
			return fmt.Sprintf("the example's expect.client.%s has %d answer(s), and the tool sent %d %s request(s)", clientFields[method], given, n, method)
		}
	}
	return ""
}
