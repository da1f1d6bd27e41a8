// calib/rtl/rat.v -- register alias table: R architectural registers, each a
// W-bit physical tag, P combinational read ports and one write port.  Read
// every cycle, so it lands in LUTRAM or flops (never BRAM: synchronous only).
module rat #(parameter R = 32, parameter W = 6, parameter P = 3) (
    input  wire                   clk,
    input  wire                   we,
    input  wire [$clog2(R)-1:0]   waddr,
    input  wire [W-1:0]           wdata,
    input  wire [P*$clog2(R)-1:0] raddr,
    output wire [P*W-1:0]         rdata
);
    reg [W-1:0] map [0:R-1];
    always @(posedge clk)
        if (we) map[waddr] <= wdata;
    genvar g;
    generate for (g = 0; g < P; g = g + 1) begin : rd
        assign rdata[g*W +: W] = map[raddr[g*$clog2(R) +: $clog2(R)]];
    end endgenerate
endmodule
