// calib/rtl/priority_select.v -- one-hot priority select of the lowest
// requesting index among N (issue select, oldest-first), with its binary
// index: grant = req & ~(req - 1) maps to ~N LUTs plus a carry chain.
module priority_select #(parameter N = 16) (
    input  wire                 clk,
    input  wire [N-1:0]         req,
    output reg  [N-1:0]         grant,
    output reg  [$clog2(N)-1:0] idx,
    output reg                  valid
);
    wire [N-1:0] g = req & ~(req - 1'b1);
    integer i;
    reg [$clog2(N)-1:0] enc;
    always @(*) begin
        enc = 0;
        for (i = 0; i < N; i = i + 1)
            if (g[i]) enc = enc | i[$clog2(N)-1:0];
    end
    always @(posedge clk) begin
        grant <= g;
        idx <= enc;
        valid <= |req;
    end
endmodule
