// calib/rtl/rrs.v -- LOOG result reservation station: E entries of T x 32
// result bits (one warp-wide result each), written by index when an
// instruction completes, read by index when the result is forwarded.
module rrs #(parameter E = 12, parameter T = 8) (
    input  wire                 clk,
    input  wire                 we,
    input  wire [$clog2(E)-1:0] widx,
    input  wire [T*32-1:0]      wdata,
    input  wire [$clog2(E)-1:0] ridx,
    output reg  [T*32-1:0]      rdata
);
    reg [T*32-1:0] ent [0:E-1];
    always @(posedge clk) begin
        if (we) ent[widx] <= wdata;
        rdata <= ent[ridx];
    end
endmodule
