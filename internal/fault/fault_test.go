package fault

import (
	"errors"
	"fmt"
	"testing"
)

func TestUnderPrefixesEveryField(t *testing.T) {
	err := InvalidFields("two fields", Problem{Field: "positions[1].wagers.bet", Message: "m"}, Problem{Field: "[0]", Message: "n"}, Problem{Message: "o"})
	got, _ := As(Under(fmt.Errorf("wrapped: %w", err), "body"))
	want := []string{"body.positions[1].wagers.bet", "body[0]", "body"}
	for i, w := range want {
		if got.Fields[i].Field != w {
			t.Errorf("field %d = %q, want %q", i, got.Fields[i].Field, w)
		}
	}
	if err.Fields[0].Field != "positions[1].wagers.bet" {
		t.Errorf("Under changed the original error: %q", err.Fields[0].Field)
	}
}

func TestKindOf(t *testing.T) {
	cause := errors.New("connection reset")
	cases := []struct {
		err  error
		want Kind
	}{
		{InvalidField("a", 1, "bad"), Invalid},
		{fmt.Errorf("op: %w", New(NotFound, "no pool p1")), NotFound},
		{Wrap(Unavailable, cause, "store"), Unavailable},
		{cause, Internal},
	}
	for _, c := range cases {
		if got := KindOf(c.err); got != c.want {
			t.Errorf("KindOf(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if !errors.Is(Wrap(Unavailable, cause, "store"), cause) {
		t.Error("Wrap does not unwrap to its cause")
	}
}

func TestErrorText(t *testing.T) {
	e := InvalidField("facts.boxTotal", 5, "not over the maximum").Cite("rws-mlp-csp-v2 5.1")
	if got, want := e.Error(), "invalid: facts.boxTotal: not over the maximum"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if e.Rules[0] != "rws-mlp-csp-v2 5.1" {
		t.Errorf("Rules = %v", e.Rules)
	}
}
